// Renewals per second (`npm run bench`, target r; or `node dist/bench/renewals.js --database-url URL`):
// `count` subscriptions due at one instant (bench/seed-renewals.ts, 100,000; 2,000 with --quick or
// BENCH_RENEWALS=n) renewed by the recurring engine (subgraphs/billing/subscriptions/lifecycle/renewal-engine.ts: claim,
// new period, cycle order, test-processor charge, payment, events, one transaction each), beside the
// same writes done by PostgreSQL alone: bench/renewals.pgbench.sql run by pgbench with as many clients
// as the engine has lanes. Prints a table and the target line
// `target renewals: <ratio> (goal 0.25) met|missed`.
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dropDatabase, ensureDatabase, withDatabase } from '../kit/database/databases.js';
import { seedDueRenewals } from './seed-renewals.js';
import { table } from './support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const RATIO_TARGET = 0.25;
const LANES = Number(process.env.BENCH_RENEWAL_LANES ?? 8);
const PGBENCH = process.env.PGBENCH ?? '/usr/lib/postgresql/15/bin/pgbench';

export interface RenewalBenchOptions {
  databaseUrl: string;
  count: number;
  log: (line: string) => void;
}

export async function benchRenewals(options: RenewalBenchOptions): Promise<string> {
  await import('reflect-metadata');
  const { openBillingOrm } = await import('../subgraphs/billing/orm.js');
  const { RenewalEngine } = await import('../subgraphs/billing/subscriptions/lifecycle/renewal-engine.js');
  const { fixedClock } = await import('../subgraphs/billing/time/organization-clocks.js');
  const { createPaymentProcessor } = await import('../subgraphs/billing/payments/payment-processor.selection.js');
  const { log, count } = options;
  const name = `bench_renewals_${randomUUID().slice(0, 6)}`;
  const serverUrl = withDatabase(options.databaseUrl, 'postgres');
  await ensureDatabase(serverUrl, name);
  const databaseUrl = withDatabase(options.databaseUrl, name);
  const orm = await openBillingOrm(databaseUrl, LANES + 2);
  try {
    const due = new Date(Date.now() - 60_000);
    const organizationId = randomUUID();
    log(`(r) seeding ${count} due subscriptions…`);
    const { productId } = await seedDueRenewals({ databaseUrl, organizationId, count, periodEnd: due });
    const payments = createPaymentProcessor(
      { processor: 'test', because: 'sandbox' },
      { em: orm.em.fork(), clock: fixedClock(due) },
    );
    const engine = new RenewalEngine({ orm, payments, environment: 'production', batchSize: 500, concurrency: LANES });
    log(`(r) renewing with ${LANES} lanes…`);
    const started = process.hrtime.bigint();
    // The engine's own CPU (this process) per renewal: the wall clock is noisy on a shared machine.
    const cpuBefore = process.cpuUsage();
    const done = await engine.runUntilIdle({ organizationId: null, at: due });
    const cpu = process.cpuUsage(cpuBefore);
    const engineSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpuMs = (cpu.user + cpu.system) / 1000 / Math.max(done, 1);
    const engineRate = done / engineSeconds;

    // The baseline: the same writes by pgbench, over the subscriptions the engine just moved (due again now).
    await orm.em.fork().execute(`update billing.subscriptions set current_period_end = now() - interval '1 day'`);
    const [customer] = await orm.em.fork().execute<{ id: string }[]>('select id from billing.customers limit 1');
    let baselineRate = Number.NaN;
    if (existsSync(PGBENCH)) {
      log(`(r) baseline: pgbench with ${LANES} clients…`);
      const perClient = Math.max(1, Math.floor(count / LANES));
      const output = execFileSync(
        PGBENCH,
        [
          '-n',
          '-M',
          'extended',
          '-c',
          String(LANES),
          '-j',
          String(Math.min(LANES, 4)),
          '-t',
          String(perClient),
          '-f',
          path.join(here, '..', '..', 'bench', 'renewals.pgbench.sql'),
          '-D',
          `org=${organizationId}`,
          '-D',
          `customer=${customer.id}`,
          '-D',
          `product=${productId}`,
          databaseUrl,
        ],
        { encoding: 'utf8' },
      );
      const tps = /tps = ([\d.]+)/.exec(output);
      baselineRate = tps ? Number(tps[1]) : Number.NaN;
    } else log(`(r) no pgbench at ${PGBENCH} (PGBENCH=…): no baseline`);
    const ratio = engineRate / baselineRate;
    return [
      '',
      `(r) renewals of ${count} due subscriptions`,
      table(
        ['target', 'renewals', 'seconds', 'renewals/s', 'engine CPU ms/renewal'],
        [
          ['(r) recurring engine', String(done), engineSeconds.toFixed(1), engineRate.toFixed(0), cpuMs.toFixed(1)],
          ['(r) pgbench, same writes', '', '', Number.isNaN(baselineRate) ? 'n/a' : baselineRate.toFixed(0), ''],
        ],
      ),
      `target renewals: ${ratio.toFixed(2)} (goal ${RATIO_TARGET}) ${ratio >= RATIO_TARGET ? 'met' : 'missed'}`,
      '',
    ].join('\n');
  } finally {
    await orm.close();
    await dropDatabase(serverUrl, name).catch(() => undefined);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const i = args.indexOf('--database-url');
  const databaseUrl = i >= 0 ? args[i + 1] : process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('--database-url or DATABASE_URL is required');
  const count = Number(process.env.BENCH_RENEWALS ?? (args.includes('--quick') ? 2_000 : 100_000));
  process.stdout.write(await benchRenewals({ databaseUrl, count, log: line => process.stderr.write(`${line}\n`) }));
}
