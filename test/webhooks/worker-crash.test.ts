import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { systemClock } from '../../kit/clock.js';
import { createLogger } from '../../kit/logger.js';
import { POLAR_DELIVERY_POLICY } from '../../subgraphs/webhooks/contract.js';
import { generateWebhookSecret, startWebhooks, type WebhooksRuntime } from '../../subgraphs/webhooks/runtime.js';
import { createMigratedTestDatabase } from '../support/database.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Fault test (docs/reliability.md#leases-and-claims, docs/reliability.md#checked-cases case 7): the delivery worker is its own process
 * (`worker.js`), SIGKILLed while its requests are in flight, i.e. after its claims committed and
 * before it could record any answer. A new worker takes the claims over once their lease ends. Must
 * hold: every event reaches every endpoint, in order per endpoint; a duplicate carries the same
 * webhook-id and the same bytes.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EVENTS = 15;

let buildDir: string;
let database: { url: string; drop: () => Promise<void> };
let runtime: WebhooksRuntime;
let receiver: WebhookReceiver;
let holding = true;
const held: (() => void)[] = [];
const workers: ChildProcess[] = [];

function build(): string {
  const out = path.join('.build', `webhooks-crash-${process.pid}-${randomBytes(3).toString('hex')}`);
  execFileSync(process.execPath, ['scripts/build.mjs', '--out-dir', out], { cwd: ROOT, stdio: 'pipe' });
  const dir = path.join(ROOT, out);
  return existsSync(path.join(dir, 'subgraphs', 'webhooks', 'worker.js')) ? dir : path.join(ROOT, 'dist');
}

function startWorker(): ChildProcess {
  const child = spawn(process.execPath, [path.join(buildDir, 'subgraphs/webhooks/worker.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      ENVIRONMENT: 'production',
      DATABASE_URL: database.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_LEASE_MS: '1500',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  workers.push(child);
  return child;
}

beforeAll(async () => {
  buildDir = build();
  database = await createMigratedTestDatabase('webhooks_crash');
  runtime = await startWebhooks({
    databaseUrl: database.url,
    clock: systemClock,
    logger: createLogger('silent'),
    allowPrivateTargets: true,
    policy: POLAR_DELIVERY_POLICY,
    runWorker: false,
    poolMax: 2,
    environment: 'production',
  });
  // While `holding`, the receiver keeps every request open (the worker waits for an answer).
  receiver = await new WebhookReceiver(() => 200).start();
}, 120_000);

afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  for (const release of held) release();
  await receiver?.close();
  await runtime?.close();
  await database?.drop();
  if (buildDir && !buildDir.endsWith(`${path.sep}dist`)) await rm(buildDir, { recursive: true, force: true });
}, 60_000);

it('a worker killed mid-delivery loses nothing; the next one redelivers with the same webhook-id', async () => {
  const organizationId = randomUUID();
  const endpoints = [] as { id: string; secret: string; path: string }[];
  for (const p of ['/a', '/b']) {
    const endpoint = { id: randomUUID(), secret: generateWebhookSecret(), path: p };
    await runtime.orm.em.fork().execute(
      `insert into webhooks.endpoints (id, organization_id, url, format, secret, events, enabled, created_at)
         values (?, ?, ?, 'raw', ?, '{customer.created}', true, now())`,
      [endpoint.id, organizationId, receiver.url(p), endpoint.secret],
    );
    endpoints.push(endpoint);
  }
  const sources = Array.from({ length: EVENTS }, (_, i) => ({
    id: randomUUID(),
    organizationId,
    type: 'customer.created',
    payload: { id: `customer-${i}`, i },
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  }));
  await runtime.ingest.ingest(sources);
  // Ingesting the same outbox rows again (a relay that crashed before marking them) changes nothing.
  expect(await runtime.ingest.ingest(sources)).toEqual({ ingested: 0 });

  // Hold the answers: the first worker claims (commits) and sends, then dies before any answer.
  const hold = receiverHolding();
  const first = startWorker();
  await receiver.until(() => receiver.on('/a').length >= 1 && receiver.on('/b').length >= 1, 'first requests');
  first.kill('SIGKILL');
  await new Promise(resolve => first.once('exit', resolve));
  hold.release();

  startWorker();
  const answered = (p: string) => new Set(receiver.on(p).map(r => r.headers['webhook-id'])).size;
  await receiver.until(() => answered('/a') === EVENTS && answered('/b') === EVENTS, 'every event', 60_000);

  for (const endpoint of endpoints) {
    const got = receiver.on(endpoint.path);
    const bodyOf = new Map<string, string>();
    for (const r of got) {
      const id = r.headers['webhook-id'] as string;
      // A duplicate is the same message: same webhook-id, same bytes, valid signature.
      if (bodyOf.has(id)) expect(r.body).toBe(bodyOf.get(id));
      bodyOf.set(id, r.body);
      new Webhook(endpoint.secret).verify(r.body, r.headers as Record<string, string>);
    }
    // Every event, in order of first arrival.
    const order = [...bodyOf.values()].map(b => JSON.parse(b).data.i);
    expect(order).toEqual(Array.from({ length: EVENTS }, (_, i) => i));
    expect(got.length).toBeGreaterThan(EVENTS - 1);
  }
  // The worker records an answer just after the receiver sends it.
  const state = async () =>
    (
      await runtime.orm.em
        .fork()
        .execute("select count(*) filter (where status = 'succeeded') as ok, count(*) as n from webhooks.messages")
    )[0];
  for (let i = 0; i < 50 && (await state()).ok !== String(EVENTS * 2); i++) await new Promise(r => setTimeout(r, 100));
  expect(await state()).toEqual({ ok: String(EVENTS * 2), n: String(EVENTS * 2) });
}, 120_000);

/** Makes the receiver keep requests open until `release()`. */
function receiverHolding() {
  holding = true;
  const original = (receiver as any).server.listeners('request')[0];
  (receiver as any).server.removeAllListeners('request');
  (receiver as any).server.on('request', (req: any, res: any) => {
    if (!holding) return original(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.received.push({ path: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      held.push(() => res.destroy());
    });
  });
  return {
    release: () => {
      holding = false;
      for (const release of held.splice(0)) release();
    },
  };
}
