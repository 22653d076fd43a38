import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { projectRoot } from '../../kit/paths.js';

/**
 * The edge (`rest-adapter/`) says what it is in named, small functions (docs/edge.md): a router
 * factory is a list of route groups, a page is its handlers, a table replaces a long switch. A body of
 * more than MOST_LINES lines is a closure that does several things; split it into functions that each
 * have a name. Generated files (`*.generated.ts`) and tests are not read.
 */
const MOST_LINES = 80;

/**
 * Functions allowed over the limit, `file:name` with the reason. Empty today; an entry is only for a
 * body that splitting would make harder to read, and the test fails on an entry that no longer
 * matches, so the list only shrinks.
 */
const ALLOWED_LONGER: Readonly<Record<string, string>> = {};

interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

/** The non-test, non-generated `.ts` files under `folder`, relative to `root` with `/`. */
function edgeSources(root: string, folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '__tests__' && entry.name !== 'node_modules') files.push(...edgeSources(root, relative));
    } else if (
      entry.name.endsWith('.ts') &&
      !entry.name.endsWith('.d.ts') &&
      !entry.name.endsWith('.test.ts') &&
      !entry.name.endsWith('.generated.ts')
    ) {
      files.push(relative);
    }
  }
  return files;
}

/** A readable name for a function node: its own, the variable or property it is assigned to, or `(anonymous)`. */
function functionName(node: ts.FunctionLikeDeclaration): string {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name && ts.isStringLiteral(node.name)) return node.name.text;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

/** Every function, arrow function, method, accessor or constructor in `text` whose body spans more than `most` lines. */
function longFunctions(file: string, text: string, most: number): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const body = node.body as ts.Node;
      const lines = lineOf(body.getEnd()) - lineOf(body.getStart(source)) + 1;
      if (lines > most)
        found.push({
          file,
          line: lineOf(node.getStart(source)),
          name: functionName(node as ts.FunctionLikeDeclaration),
          lines,
        });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length in rest-adapter/', () => {
  it('measures a body from its opening to its closing line', () => {
    const short = `function f() {\n${'  x();\n'.repeat(2)}}\nconst g = () => {\n${'  y();\n'.repeat(6)}};\n`;
    expect(longFunctions('t.ts', short, 4)).toEqual([{ file: 't.ts', line: 5, name: 'g', lines: 8 }]);
    const method = `class A {\n  m() {\n${'    z();\n'.repeat(5)}  }\n}\n`;
    expect(longFunctions('t.ts', method, 6)).toEqual([{ file: 't.ts', line: 2, name: 'm', lines: 7 }]);
  });

  it(`has no function body over ${MOST_LINES} lines`, () => {
    const root = projectRoot();
    const files = edgeSources(root, 'rest-adapter');
    expect(files.length).toBeGreaterThan(50);
    const long = files.flatMap(file => longFunctions(file, readFileSync(path.join(root, file), 'utf8'), MOST_LINES));
    const key = (f: LongFunction) => `${f.file}:${f.name}`;
    const offenders = long
      .filter(f => !(key(f) in ALLOWED_LONGER))
      .map(f => `${f.file}:${f.line} ${f.name} is ${f.lines} lines`);
    expect(offenders).toEqual([]);
    const stale = Object.keys(ALLOWED_LONGER).filter(entry => !long.some(f => key(f) === entry));
    expect(stale).toEqual([]);
  });
});
