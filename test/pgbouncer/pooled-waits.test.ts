import pg from 'pg';
import { DEFAULT_DATABASE_WAITS } from '../../kit/config.js';
import { declareDirectUrl } from '../../kit/database/direct-urls.js';
import { unboundedWaitsBehindPooler } from '../../kit/database/pooled-waits.js';
import { createTestDatabase, testServerUrl } from '../support/database.js';
import { pgbouncerInstalled, type RunningPgBouncer, startPgBouncer } from './pgbouncer.js';

/**
 * The start-up warning when the service reaches PostgreSQL through PgBouncer and nothing bounds its
 * sessions' waits there (kit/database/pooled-waits.ts, docs/pgbouncer.md#the-bounds-of-waits).
 */
const installed = pgbouncerInstalled();
const maybe = installed ? it : it.skip;
let bouncer: RunningPgBouncer | undefined;
let database: { url: string; drop: () => Promise<void> };

beforeAll(async () => {
  database = await createTestDatabase('pooled_waits');
  if (installed) bouncer = await startPgBouncer(testServerUrl());
});
afterAll(async () => {
  await bouncer?.stop();
  await database?.drop();
});

async function onTheDatabase(sql: string) {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

maybe('names each unbounded wait and its fix, then says nothing once the database sets them', async () => {
  const pooled = bouncer!.pooled(database.url);
  declareDirectUrl(pooled, database.url);
  const warning = await unboundedWaitsBehindPooler(pooled, DEFAULT_DATABASE_WAITS);
  expect(warning).toContain(
    'its sessions have no statement_timeout, lock_timeout, idle_in_transaction_session_timeout',
  );
  expect(warning).toContain("set statement_timeout = '30000ms';");
  expect(warning).toContain("set idle_in_transaction_session_timeout = '120000ms';");
  expect(warning).toContain('docs/pgbouncer.md');

  // A wait the configuration turns off (0) is not asked for.
  const onlyLocks = { ...DEFAULT_DATABASE_WAITS, statementTimeoutMs: 0, idleInTransactionTimeoutMs: 0 };
  expect(await unboundedWaitsBehindPooler(pooled, onlyLocks)).toMatch(/sessions have no lock_timeout: /);

  const name = new URL(database.url).pathname.slice(1);
  await onTheDatabase(`alter database ${name} set statement_timeout = '30s'`);
  await onTheDatabase(`alter database ${name} set lock_timeout = '10s'`);
  await onTheDatabase(`alter database ${name} set idle_in_transaction_session_timeout = '120s'`);
  // PgBouncer's server connections keep the settings they started with: a new pool sees the new ones.
  const fresh = await startPgBouncer(testServerUrl());
  try {
    const pooledAfresh = fresh.pooled(database.url);
    declareDirectUrl(pooledAfresh, database.url);
    expect(await unboundedWaitsBehindPooler(pooledAfresh, DEFAULT_DATABASE_WAITS)).toBeNull();
  } finally {
    await fresh.stop();
  }
});

it('says nothing for a direct URL: the service sends the bounds itself', async () => {
  expect(await unboundedWaitsBehindPooler(database.url, DEFAULT_DATABASE_WAITS)).toBeNull();
});
