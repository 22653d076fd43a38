import { embeddedPostgresRuntime } from '../../kit/database/embedded-postgres-runtime.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { systemClock } from '../../kit/clock.js';
import { ensureDatabase, withDatabase } from '../../kit/database/databases.js';
import { EmbeddedPostgres } from '../../kit/database/embedded-postgres.js';
import { createLogger } from '../../kit/logger.js';
import { type BillingRuntime, OutboxRelay, startBilling } from '../../subgraphs/billing/runtime.js';
import { POLAR_DELIVERY_POLICY } from '../../subgraphs/webhooks/contract.js';
import { startWebhooks, type WebhooksRuntime } from '../../subgraphs/webhooks/runtime.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { freePort } from '../support/ports.js';

/**
 * Fault test (docs/reliability.md#checked-cases case 36, on its own server): PostgreSQL is killed (immediate
 * shutdown, as a crash: recovery replays the WAL at the next start) while billing's outbox relay and
 * the delivery worker are in the middle of a burst, and started again. Must hold: the processes stay
 * up, every outbox row is handed over exactly once, every event reaches the endpoint, and a duplicate
 * only ever repeats a webhook-id with the same bytes.
 *
 * The server is an embedded PostgreSQL this test starts in a temporary folder: never the machine's.
 */
const EVENTS = 300;
let dir: string;
let postgres: EmbeddedPostgres;
let billing: BillingRuntime;
let webhooks: WebhooksRuntime;
let relay: OutboxRelay;
let receiver: WebhookReceiver;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'webhooks-pg-restart-'));
  // As root, PostgreSQL runs as the OS user `postgres` from binaries that user can reach.
  const runtime = await embeddedPostgresRuntime();
  if (runtime.user) await chown(dir, runtime.user.uid, runtime.user.gid);
  postgres = new EmbeddedPostgres({
    runtime,
    dataDir: path.join(dir, 'data'),
    port: await freePort(),
    password: randomBytes(12).toString('hex'),
  });
  await postgres.initialise();
  await postgres.start();
  await ensureDatabase(`${postgres.url}/postgres`, 'burst');
  const url = withDatabase(`${postgres.url}/postgres`, 'burst');
  const logger = createLogger('silent');
  billing = await startBilling({
    databaseUrl: url,
    secret: 'x'.repeat(40),
    clock: systemClock,
    environment: 'production',
    publicUrl: 'http://x',
  });
  webhooks = await startWebhooks({
    databaseUrl: url,
    clock: systemClock,
    logger,
    allowPrivateTargets: true,
    policy: { ...POLAR_DELIVERY_POLICY, retryBaseMs: 20, retryMaxMs: 200, leaseMs: 1500 },
    runWorker: true,
    environment: 'production',
  });
  relay = new OutboxRelay(billing.orm, webhooks.ingest, logger);
  receiver = await new WebhookReceiver(() => 200).start();
}, 120_000);

afterAll(async () => {
  await relay?.stop();
  await webhooks?.close();
  // NOTE: closing billing's ORM after the crash waits for a pool connection that is never released
  // (seen only after a server crash under the relay's transactions); bounded here, reported as a finding.
  await Promise.race([billing?.close(), new Promise(resolve => setTimeout(resolve, 5000).unref())]);
  await receiver?.close();
  await postgres?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

it('a PostgreSQL crash and restart during a burst loses and doubles nothing', async () => {
  const organizationId = randomUUID();
  await webhooks.orm.em.fork().execute(
    `insert into webhooks.endpoints (id, organization_id, url, format, secret, events, enabled, created_at)
       values (gen_random_uuid(), ?, ?, 'raw', 'whsec_${'a'.repeat(43)}', '{customer.created}', true, now())`,
    [organizationId, receiver.url('/burst')],
  );
  // The burst: billing's outbox fills (as billing writes do), the relay and the worker drain it.
  await billing.orm.em.fork().execute(
    `insert into billing.events (id, organization_id, type, payload, created_at)
     select gen_random_uuid(), ?, 'customer.created', jsonb_build_object('id', 'c-' || i, 'i', i),
            now() + i * interval '1 millisecond'
       from generate_series(1, ?) i`,
    [organizationId, EVENTS],
  );
  relay.start();
  await receiver.until(() => receiver.on('/burst').length >= 20, 'the burst to start');

  // Crash: immediate shutdown (no checkpoint; the next start recovers from the WAL), then restart.
  const child = (postgres as unknown as { child: import('node:child_process').ChildProcess }).child;
  const exited = new Promise(resolve => child.once('exit', resolve));
  child.kill('SIGQUIT');
  await exited;
  (postgres as unknown as { child: undefined }).child = undefined;
  const deliveredDuringOutage = receiver.on('/burst').length;
  await new Promise(resolve => setTimeout(resolve, 1000));
  await postgres.start();

  const ids = () => new Set(receiver.on('/burst').map(r => r.headers['webhook-id']));
  await receiver.until(() => ids().size === EVENTS, `all ${EVENTS} events`, 90_000);
  expect(deliveredDuringOutage).toBeLessThan(EVENTS);

  const bodyOf = new Map<string, string>();
  for (const r of receiver.on('/burst')) {
    const id = r.headers['webhook-id'] as string;
    if (bodyOf.has(id)) expect(r.body).toBe(bodyOf.get(id));
    bodyOf.set(id, r.body);
  }
  // In order of first arrival, each object once.
  expect([...bodyOf.values()].map(b => JSON.parse(b).data.i)).toEqual(Array.from({ length: EVENTS }, (_, i) => i + 1));
  const [outbox] = await billing.orm.em
    .fork()
    .execute('select count(*) filter (where dispatched_at is null) as pending, count(*) as n from billing.events');
  expect(outbox).toEqual({ pending: '0', n: String(EVENTS) });
  const [ingested] = await webhooks.orm.em
    .fork()
    .execute('select count(*) as n, count(distinct source_event_id) as d from webhooks.events');
  expect(ingested).toEqual({ n: String(EVENTS), d: String(EVENTS) });
}, 180_000);
