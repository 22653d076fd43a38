// `npm run bench -- --profile`: the service's CPU profile (node --cpu-prof) summarised by package, so
// the next regression is found in minutes: self time per npm package, node internals, GC, and ours.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code comes from: an npm package, node itself, GC/idle, or this project. */
function owner(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1];
  if (url.startsWith('node:')) return 'node: internals';
  const local = /\/dist\/([^/]+)/.exec(url);
  return local ? `(ours) ${local[1]}/` : '(ours)';
}

export async function profileSummary(directory: string, top = 15): Promise<string> {
  const files = (await readdir(directory)).filter(f => f.endsWith('.cpuprofile'));
  const totals = new Map<string, number>();
  let all = 0;
  for (const file of files) {
    const profile = JSON.parse(await readFile(path.join(directory, file), 'utf8')) as CpuProfile;
    const byId = new Map(profile.nodes.map(n => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const name = owner(byId.get(id)!);
      if (name === '(idle)') return;
      const dt = profile.timeDeltas[i] ?? 0;
      totals.set(name, (totals.get(name) ?? 0) + dt);
      all += dt;
    });
  }
  const lines = [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(
      ([name, us]) =>
        `  ${((100 * us) / Math.max(all, 1)).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`,
    );
  return [`CPU profile of the service (self time by package, idle excluded, ${files.length} file(s)):`, ...lines].join(
    '\n',
  );
}
