import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The ORM methods that run a statement (or build one) when called on an EntityManager or its
 * connection. The unit-of-work methods (`persist`, `flush`, `transactional`, `refresh`, `getReference`,
 * `create`, `remove`, `assign`, `lock`) are not here: they change or reload entities the service already
 * holds, and belong in the service that owns the change.
 */
const ORM_QUERY_METHODS = new Set([
  'find',
  'findOne',
  'findOneOrFail',
  'findAll',
  'findAndCount',
  'count',
  'nativeUpdate',
  'nativeDelete',
  'insert',
  'insertMany',
  'upsert',
  'upsertMany',
  'execute',
]);

/** Methods that build SQL whatever they are called on (no other object in the project has them). */
const SQL_BUILDER_METHODS = new Set(['createQueryBuilder', 'qb', 'getKnex']);

/** kit/database/read/execute.ts's functions: each runs a hand-written statement. */
const READ_EXECUTORS = new Set(['runRead', 'withReads']);

/** One database call found in a source file. */
export interface DatabaseCall {
  file: string;
  line: number;
  /** The call as written up to its arguments (`ctx.em.findOne`), whitespace removed. */
  callee: string;
}

/**
 * Whether `receiver` is an ORM handle by the project's naming: an EntityManager is always called `em`
 * (a variable, a parameter, `ctx.em`, `this.em`, `this.deps.em`, `orm.em`; a `tx`/`trx` or a name ending in
 * `Em` is one too), `x.fork()` is a forked EntityManager, and `x.getConnection()` or a variable
 * `connection` is the ORM's connection.
 */
function isOrmHandle(receiver: ts.Expression): boolean {
  const expression = unwrap(receiver);
  const name = lastName(expression);
  if (name === undefined) return false;
  if (ts.isCallExpression(expression)) return name === 'fork' || name === 'getConnection';
  return name === 'em' || name === 'tx' || name === 'trx' || /^[a-z]\w*Em$/.test(name) || name === 'connection';
}

/** A `pg` pool or client (`pool`, `client`, `(await this.pool)`), whose `query` runs SQL. */
function isPgClient(receiver: ts.Expression): boolean {
  const expression = unwrap(receiver);
  if (ts.isCallExpression(expression)) return false;
  const name = lastName(expression);
  return name === 'pool' || name === 'client';
}

function unwrap(expression: ts.Expression): ts.Expression {
  let current = expression;
  while (ts.isParenthesizedExpression(current) || ts.isAwaitExpression(current) || ts.isAsExpression(current))
    current = current.expression;
  return current;
}

/** `em` → em, `ctx.em` → em, `this.orm.em.fork()` → fork; undefined for anything else. */
function lastName(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  if (ts.isCallExpression(expression)) return lastName(expression.expression);
  return undefined;
}

/** Whether `call` is a database call (see `isOrmHandle`, `isPgClient` and the method sets above). */
function isDatabaseCall(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return READ_EXECUTORS.has(callee.text);
  if (!ts.isPropertyAccessExpression(callee)) return false;
  const method = callee.name.text;
  if (SQL_BUILDER_METHODS.has(method)) return true;
  if (ORM_QUERY_METHODS.has(method)) return isOrmHandle(callee.expression);
  if (method === 'query') return isPgClient(callee.expression);
  return false;
}

/** The database calls in one source text. */
export function databaseCallsIn(file: string, text: string): DatabaseCall[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const calls: DatabaseCall[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && isDatabaseCall(node)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      calls.push({ file, line, callee: node.expression.getText(source).replace(/\s+/g, '') });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls;
}

/** The database calls in every non-test `.ts` file under `folder` (relative to `root`, with `/`). */
export function databaseCalls(root: string, folder: string): DatabaseCall[] {
  return sourceFiles(root, folder).flatMap(file => databaseCallsIn(file, readFileSync(path.join(root, file), 'utf8')));
}

/** Source files only: `__tests__/` folders and `*.test.ts` files are left out. */
function sourceFiles(root: string, folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== '__tests__') files.push(...sourceFiles(root, relative));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts')) {
      files.push(relative);
    }
  }
  return files;
}
