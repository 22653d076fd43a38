import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { seedDueRenewals } from '../../bench/seed-renewals.js';
import { createMigratedTestDatabase } from '../support/database.js';
import { TEST_SECRET } from '../support/stack.js';
import { freePort } from '../support/ports.js';

/**
 * docs/reliability.md#exactly-once-where-it-matters for renewals: the built server, whose renewal scheduler runs every 100 ms, is
 * started over 300 due subscriptions with `FAULT_INJECTION_EXIT_AT=renewal.after-charge`: it exits (as a
 * `kill -9` would) in the middle of its first batch, once the processor has charged a renewal and before
 * that payment commits, with other renewals of the batch in flight. Restarted without the fault, it
 * finishes the batch: one order, one payment and one processor charge per subscription and period.
 */
jest.setTimeout(300_000);

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const COUNT = 300;
let buildDir: string;
let dataDir: string;
let databases: { url: string; drop: () => Promise<void> }[] = [];
let sandboxUrl: string;
let organizationId: string;
const spawned = new Set<ChildProcess>();

async function startServer(extra: Record<string, string> = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(buildDir, 'embedded', 'main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      DATABASE_URL: databases[0].url,
      SANDBOX_DATABASE_URL: sandboxUrl,
      SECRET: TEST_SECRET,
      PORT: String(await freePort()),
      SANDBOX_PORT: String(port),
      LOG_LEVEL: 'silent',
      RENEWAL_INTERVAL_MS: '100',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.add(child);
  let output = '';
  child.stdout!.on('data', chunk => (output += chunk));
  child.stderr!.on('data', chunk => (output += chunk));
  const exited = new Promise<number | null>(resolve =>
    child.once('exit', code => {
      spawned.delete(child);
      resolve(code);
    }),
  );
  return { child, exited, output: () => output };
}

async function counts(): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: sandboxUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select
         (select count(*) from billing.orders where organization_id = $1 and billing_reason = 'subscription_cycle') as orders,
         (select count(*) from billing.orders where organization_id = $1 and billing_reason = 'subscription_cycle' and status = 'paid') as paid,
         (select count(*) from (select subscription_id, billing_period_start from billing.orders
            where organization_id = $1 and billing_reason = 'subscription_cycle' group by 1, 2 having count(*) > 1) d) as duplicated_periods,
         (select count(*) from billing.payments where organization_id = $1) as payments,
         (select count(*) from billing.test_processor_charges
            where metadata->>'subscription_id' in (select id::text from billing.subscriptions where organization_id = $1)) as charges`,
      [organizationId],
    );
    return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  buildDir = path.join(ROOT, '.build', `renewal-crash-${process.pid}-${randomBytes(3).toString('hex')}`);
  execFileSync(process.execPath, ['scripts/build.mjs', '--out-dir', buildDir], { cwd: ROOT, stdio: 'pipe' });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'billing-renewal-crash-'));
  await chmod(dataDir, 0o755);
  // Copies of the migrated template: the schemas are there for the due subscriptions.
  databases = [
    await createMigratedTestDatabase('renewal_crash_production'),
    await createMigratedTestDatabase('renewal_crash_sandbox'),
  ];
  sandboxUrl = databases[1].url;
  organizationId = randomUUID();
  await seedDueRenewals({
    databaseUrl: sandboxUrl,
    organizationId,
    count: COUNT,
    periodEnd: new Date(Date.now() - 60_000),
  });
});

afterAll(async () => {
  for (const child of spawned) child.kill('SIGKILL');
  for (const database of databases) await database.drop().catch(() => undefined);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (buildDir) await rm(buildDir, { recursive: true, force: true });
});

it('a process killed mid-batch, between a charge and its commit, then restarted: one order and one charge each', async () => {
  const crashing = await startServer({ FAULT_INJECTION_EXIT_AT: 'renewal.after-charge' });
  expect(await crashing.exited).toBe(86);
  const killed = await counts();
  // Money moved for a renewal whose payment never committed; the batch is unfinished.
  expect(killed.charges).toBeGreaterThan(killed.payments);
  expect(killed.paid).toBeLessThan(COUNT);
  expect(killed.duplicated_periods).toBe(0);

  const restarted = await startServer();
  const deadline = Date.now() + 180_000;
  let now = killed;
  while (now.paid < COUNT && Date.now() < deadline) {
    await new Promise(r => setTimeout(r, 500));
    now = await counts();
  }
  restarted.child.kill('SIGTERM');
  await restarted.exited;
  expect(await counts()).toEqual({
    orders: COUNT,
    paid: COUNT,
    duplicated_periods: 0,
    payments: COUNT,
    charges: COUNT,
  });
});
