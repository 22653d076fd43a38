import { projectRoot } from '../../kit/paths.js';
import { type DatabaseCall, databaseCalls, databaseCallsIn } from '../support/database-calls.js';

/**
 * Queries live in repositories and read models: a service says what it needs
 * (`this.checkouts.findOpenForUpdate(id)`), the repository says how it is fetched, so filters, locks and
 * ordering are written once and read in one place.
 *
 * A database call (test/support/database-calls.ts, read with the TypeScript parser) is, in a non-test
 * source file under subgraphs/:
 * - `find`, `findOne`, `findOneOrFail`, `findAll`, `findAndCount`, `count`, `nativeUpdate`, `nativeDelete`,
 *   `insert`, `insertMany`, `upsert`, `upsertMany` or `execute` called on an ORM handle: an EntityManager
 *   (named `em` by convention — `em`, `ctx.em`, `this.em`, `this.deps.em`, `orm.em`; also `tx`, `trx`,
 *   `…Em`), a forked one (`….fork()`), or the ORM's connection (`….getConnection()`, `connection`);
 * - `createQueryBuilder`, `qb` or `getKnex` on anything;
 * - `query` on a `pg` pool or client (`pool`, `client`, `(await this.pool)`);
 * - `runRead(…)` / `withReads(…)` (kit/database/read/execute.ts: a hand-written statement).
 * Unit-of-work calls (`persist`, `flush`, `transactional`, `refresh`, `getReference`, `create`, `remove`,
 * `assign`, `lock`) are not queries: they act on entities the service holds and stay in services.
 *
 * Such calls belong in files whose role is data access: `*.repository.ts`, `*.read.ts`, `*.queries.ts`,
 * anything under a `migrations/` folder, a subgraph's `orm.ts` (and kit/database/, which is not scanned).
 * Elsewhere they are counted per file against ALLOWED_OUTSIDE_REPOSITORIES, a list that only shrinks: the
 * test fails when a file has more calls than its entry allows, when a file without an entry has any, and
 * when an entry is larger than the file's count (lower it) or names a file with none (remove it).
 */
function isDataAccessFile(file: string): boolean {
  const name = file.slice(file.lastIndexOf('/') + 1);
  return (
    /\.(repository|read|queries)\.ts$/.test(name) ||
    file.includes('/migrations/') ||
    name === 'orm.ts' ||
    file.startsWith('kit/database/')
  );
}

/**
 * Files that still hold database calls outside a repository or read model: `file: count`, only shrinking.
 * Empty since every subgraph's queries moved (266 calls in 66 files when the list was written): a new
 * entry needs a reason the data-access doc can give.
 */
const ALLOWED_OUTSIDE_REPOSITORIES: Readonly<Record<string, number>> = {};

const calls = databaseCalls(projectRoot(), 'subgraphs');
const outside = calls.filter(call => !isDataAccessFile(call.file));

function countByFile(list: DatabaseCall[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { file } of list) counts.set(file, (counts.get(file) ?? 0) + 1);
  return counts;
}

describe('database calls are found in the sources', () => {
  const found = (text: string) => databaseCallsIn('x.ts', text).map(call => call.callee);

  it('counts queries on an EntityManager, a fork, the connection, a pg pool and the read executor', () => {
    const text = `
      async function f(ctx, em, orm, pool) {
        await em.findOne(A, { id });
        await ctx.em
          .find(A, {});
        await this.deps.em.nativeUpdate(A, {}, {});
        await orm.em.fork().count(A);
        await ctx.em.getConnection().execute('select 1');
        await (await this.pool).query('select 1');
        await em.createQueryBuilder(A).insert({}).execute();
        await runRead(em, 'select 1', []);
      }`;
    expect(found(text)).toEqual([
      'em.findOne',
      'ctx.em.find',
      'this.deps.em.nativeUpdate',
      'orm.em.fork().count',
      'ctx.em.getConnection().execute',
      '(awaitthis.pool).query',
      'em.createQueryBuilder',
      'runRead',
    ]);
  });

  it('leaves out unit-of-work calls, arrays, repositories and use cases', () => {
    const text = `
      async function f(ctx, em, prices, update) {
        em.persist(a); await em.flush(); await em.refresh(a); em.getReference(A, id); em.create(A, {});
        await em.transactional(async em => em.remove(a));
        prices.find(price => price.id === id);
        await this.customers.findReadable(principal, id);
        await ctx.services.subscriptionUpdates.update.execute(input);
        await this.find(ctx, id);
      }`;
    expect(found(text)).toEqual([]);
  });

  it('finds the calls of the tree, in repositories and outside them', () => {
    expect(calls.length).toBeGreaterThan(100);
    expect(calls.filter(call => isDataAccessFile(call.file)).length).toBeGreaterThan(20);
  });
});

describe('queries live in repositories and read models', () => {
  // `PRINT_QUERY_COUNTS=1` prints today's exact allow-list, to paste after moving queries.
  if (process.env.PRINT_QUERY_COUNTS) {
    const lines = [...countByFile(outside)].sort(([a], [b]) => a.localeCompare(b));
    console.log(lines.map(([file, count]) => `  '${file}': ${count},`).join('\n'));
    console.log(`${outside.length} calls in ${lines.length} files`);
  }

  it('has no file with more database calls outside a repository than the allow-list says', () => {
    const tooMany = [...countByFile(outside)]
      .filter(([file, count]) => count > (ALLOWED_OUTSIDE_REPOSITORIES[file] ?? 0))
      .map(([file, count]) => {
        const lines = outside.filter(call => call.file === file).map(call => `${call.line} ${call.callee}`);
        return `${file}: ${count} (allowed ${ALLOWED_OUTSIDE_REPOSITORIES[file] ?? 0})\n  ${lines.join('\n  ')}`;
      });
    expect(tooMany).toEqual([]);
  });

  it('has an allow-list that is exact: every entry is the file count today (it only shrinks)', () => {
    const counts = countByFile(outside);
    const stale = Object.entries(ALLOWED_OUTSIDE_REPOSITORIES)
      .filter(([file, allowed]) => (counts.get(file) ?? 0) < allowed)
      .map(([file, allowed]) => `${file}: allowed ${allowed}, has ${counts.get(file) ?? 0}`);
    expect(stale).toEqual([]);
  });
});
