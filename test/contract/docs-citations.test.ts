import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The docs stand alone: every document a source file, a test or a doc cites is in the repository. The
 * reference notes the project was started from (Polar's API, the reliability anchors, the interface, the
 * design brief) are not shipped with it, so citing them leaves a reader with nothing to open; their facts
 * are written in `docs/` instead. Checked here:
 * - no file names one of those outside documents;
 * - every `something.md` or `something.md#anchor` a file cites exists (from the repository root, or from
 *   the citing file's folder), with that heading;
 * - every relative link of the Markdown docs reaches a file, and a heading when it names an anchor;
 * - `docs/architecture.md` stays an overview (at most 700 lines), the topics in their own documents.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SCANNED = [
  'kit',
  'subgraphs',
  'gateway',
  'rest-adapter',
  'embedded',
  'cli',
  'scripts',
  'bench',
  'test',
  'docs',
  'schema/operations',
  'README.md',
  'Dockerfile',
  'docker-compose.yml',
];
const TEXT_FILE = /\.(ts|mts|mjs|js|md|yml|yaml|graphql)$|(^|\/)Dockerfile$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.data', '.git', 'coverage']);
const THIS_FILE = 'test/contract/docs-citations.test.ts';
const ARCHITECTURE_MAX_LINES = 700;

/** Names of documents that live outside the repository, however they are cited. */
const OUTSIDE_DOCUMENTS: { name: string; pattern: RegExp }[] = [
  { name: 'polar-api.md', pattern: /\bpolar-api(\.md)?\b/ },
  { name: 'polar-next.md', pattern: /\bpolar-next\.md\b/ },
  { name: 'style-anchors.md', pattern: /\bstyle-anchors\.md\b/ },
  { name: 'DESIGN.md', pattern: /\bDESIGN\.md\b/ },
  { name: 'the interface document (interface §…)', pattern: /\binterface\s+§/i },
];

function listFiles(entry: string, out: string[] = []): string[] {
  const full = path.join(ROOT, entry);
  if (!existsSync(full)) return out;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full)) {
      if (!SKIPPED_DIRS.has(name)) listFiles(path.posix.join(entry, name), out);
    }
  } else if (TEXT_FILE.test(entry) && entry !== THIS_FILE) {
    out.push(entry);
  }
  return out;
}

const files = SCANNED.flatMap(entry => listFiles(entry));
const texts = new Map(files.map(file => [file, readFileSync(path.join(ROOT, file), 'utf8')]));

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) inFence = !inFence;
    const heading = !inFence && line.match(/^#{1,6}\s+(.*?)\s*#*\s*$/);
    if (!heading) continue;
    const base = heading[1]
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const anchorCache = new Map<string, Set<string>>();
function hasAnchor(markdownFile: string, anchor: string): boolean {
  if (!anchorCache.has(markdownFile)) {
    anchorCache.set(markdownFile, anchorsOf(readFileSync(path.join(ROOT, markdownFile), 'utf8')));
  }
  return anchorCache.get(markdownFile)?.has(anchor) ?? false;
}

/** The repository file a cited name means: from the root, or from the citing file's folder. */
function resolveCited(citingFile: string, name: string): string | undefined {
  const candidates = [path.posix.normalize(name), path.posix.join(path.posix.dirname(citingFile), name)];
  return candidates.find(candidate => !candidate.startsWith('..') && existsSync(path.join(ROOT, candidate)));
}

describe('the docs stand alone', () => {
  it('no file cites a document kept outside the repository', () => {
    const found: string[] = [];
    for (const [file, text] of texts) {
      for (const { name, pattern } of OUTSIDE_DOCUMENTS) {
        const global = new RegExp(pattern.source, `${pattern.flags}g`);
        for (const match of text.matchAll(global)) found.push(`${file}:${lineOf(text, match.index)}: ${name}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('every cited document, and the heading it names, exists', () => {
    const missing: string[] = [];
    // `docs/x.md`, `x.md#anchor`; not part of a URL (`://…/x.md`) or of a longer word.
    const citation = /(?<![\w/.:-])((?:[\w-]+\/|\.\.?\/)*[\w.-]+\.md)(?:#([\w-]+))?/g;
    for (const [file, text] of texts) {
      for (const match of text.matchAll(citation)) {
        const [whole, name, anchor] = match;
        const target = resolveCited(file, name);
        if (!target) missing.push(`${file}:${lineOf(text, match.index)}: ${whole} (no such file)`);
        else if (anchor && !hasAnchor(target, anchor)) {
          missing.push(`${file}:${lineOf(text, match.index)}: ${whole} (no heading #${anchor} in ${target})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("the Markdown docs' relative links reach a file, and a heading when they name one", () => {
    const broken: string[] = [];
    const markdown = files.filter(file => file.endsWith('.md') && (file.startsWith('docs/') || file === 'README.md'));
    for (const file of markdown) {
      const text = texts.get(file) ?? '';
      const withoutFences = text.replace(/```[\s\S]*?```/g, fence => fence.replace(/[^\n]/g, ' '));
      for (const match of withoutFences.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const href = match[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // https:, mailto:
        const [target, anchor] = href.split('#');
        const resolved = target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
        const where = `${file}:${lineOf(text, match.index)}: ${href}`;
        if (resolved.startsWith('..') || !existsSync(path.join(ROOT, resolved))) broken.push(`${where} (no such file)`);
        else if (anchor && resolved.endsWith('.md') && !hasAnchor(resolved, anchor))
          broken.push(`${where} (no heading #${anchor})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every project path a comment or doc names exists (a file moved, its mentions moved with it)', () => {
    // A path from the root (`subgraphs/billing/…/x.ts`, `docs/x.md`); tests' own made-up paths aside.
    const projectPath =
      /(?<![\w./-])(?:kit|subgraphs|rest-adapter|gateway|embedded|cli|scripts|bench|docs|schema)\/[\w./-]+\.(?:ts|md|graphql|mjs)\b/g;
    const missing: string[] = [];
    for (const [file, text] of texts) {
      if (file.startsWith('test/') || file.includes('/__tests__/')) continue;
      for (const match of text.matchAll(projectPath)) {
        if (!existsSync(path.join(ROOT, match[0]))) missing.push(`${file}:${lineOf(text, match.index)} ${match[0]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it(`docs/architecture.md is an overview of at most ${ARCHITECTURE_MAX_LINES} lines`, () => {
    const lines = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(ARCHITECTURE_MAX_LINES);
  });
});
