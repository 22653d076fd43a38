// Compiles the TypeScript sources to dist/ with SWC (decorator metadata included) and copies the
// committed GraphQL artefacts next to them. Type checking is separate: `npm run typecheck`.
// `--out-dir <dir>` (inside the project, so node_modules resolves) builds elsewhere: the tests that spawn
// built processes use a private folder, so a concurrent `npm start` or build cannot delete files under them.
import { transformFile } from '@swc/core';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const outIndex = process.argv.indexOf('--out-dir');
const dist =
  outIndex > 0 && process.argv[outIndex + 1] ? path.resolve(root, process.argv[outIndex + 1]) : path.join(root, 'dist');
const sourceDirs = ['kit', 'subgraphs', 'gateway', 'rest-adapter', 'embedded', 'cli', 'scripts', 'bench'];
const swcrc = JSON.parse(await readFile(path.join(root, '.swcrc'), 'utf8'));
delete swcrc.$schema;

async function* typescriptFiles(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === '__tests__' || entry.name === 'node_modules') continue;
      yield* typescriptFiles(full);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
      yield full;
    }
  }
}

await rm(dist, { recursive: true, force: true });
let count = 0;
const jobs = [];
for (const dir of sourceDirs) {
  for await (const file of typescriptFiles(path.join(root, dir))) {
    jobs.push(
      (async () => {
        const { code, map } = await transformFile(file, { ...swcrc, swcrc: false, filename: file, sourceMaps: true });
        const target = path.join(dist, path.relative(root, file)).replace(/\.ts$/, '.js');
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, `${code}\n//# sourceMappingURL=${path.basename(target)}.map\n`);
        if (map) await writeFile(`${target}.map`, map);
        count++;
      })(),
    );
  }
}
await Promise.all(jobs);
await cp(path.join(root, 'schema'), path.join(dist, 'schema'), { recursive: true });
process.stdout.write(`built ${count} files into ${path.relative(root, dist) || '.'}/\n`);
