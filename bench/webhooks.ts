// Webhook delivery throughput (`npm run bench`, target w; or `node dist/bench/webhooks.js --database-url URL`).
//
//   (w1) the delivery worker (`dist/subgraphs/webhooks/worker.js`, its own process, as in the distributed
//        topology): ENDPOINTS endpoints × EVENTS events queued at once, timed from the queueing until
//        every message is recorded as delivered;
//   (w2) a bare node:http client (keep-alive) posting the same bodies with the same headers to the same
//        receiver, with the same concurrency the worker has (one request in flight per endpoint, since
//        each endpoint's events go in order).
//
// The receiver (bench/webhook-receiver.ts) is a third process. The worker's database is a fresh one
// created next to `--database-url` and dropped afterwards. BENCH_WEBHOOK_ENDPOINTS (20), BENCH_WEBHOOK_EVENTS
// (200) and BENCH_WEBHOOK_WORKER_FLAGS (node flags for the worker, e.g. --cpu-prof) tune it. No assertion on timing: it prints numbers and
// the target line `target webhook-deliveries: <ratio> (goal 0.5) met|missed`.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropDatabase, ensureDatabase, withDatabase } from '../kit/database/databases.js';
import { createLogger } from '../kit/logger.js';
import {
  generateWebhookSecret,
  InProcessWebhookIngest,
  openWebhooksOrm,
  signatureHeader,
  WEBHOOK_USER_AGENT,
} from '../subgraphs/webhooks/runtime.js';
import { type Child, listeningPort, spawnNode, table } from './support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const RATIO_TARGET = 0.5;
const ENDPOINTS = Number(process.env.BENCH_WEBHOOK_ENDPOINTS ?? 20);
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 200);

export interface WebhookBenchOptions {
  /** Any database URL on the server to use; the bench creates (and drops) its own database there. */
  databaseUrl: string;
  log: (line: string) => void;
}

export async function benchWebhooks(options: WebhookBenchOptions): Promise<string> {
  const { log } = options;
  const name = `bench_webhooks_${randomBytes(3).toString('hex')}`;
  const serverUrl = withDatabase(options.databaseUrl, 'postgres');
  await ensureDatabase(serverUrl, name);
  const databaseUrl = withDatabase(options.databaseUrl, name);
  const orm = await openWebhooksOrm(databaseUrl, 4);
  const receiver = spawnNode(path.join(here, 'webhook-receiver.js'), [], { PATH: process.env.PATH ?? '' });
  let worker: Child | undefined;
  try {
    const port = await listeningPort(receiver);
    const target = `http://127.0.0.1:${port}/hook`;
    const organizationId = randomUUID();
    const secrets: string[] = [];
    for (let e = 0; e < ENDPOINTS; e++) {
      const secret = generateWebhookSecret();
      secrets.push(secret);
      await orm.em.fork().execute(
        `insert into webhooks.endpoints (id, organization_id, url, format, secret, events, enabled, created_at)
           values (gen_random_uuid(), ?, ?, 'raw', ?, '{customer.created}', true, now())`,
        [organizationId, target, secret],
      );
    }
    const payload = (i: number) => ({
      id: randomUUID(),
      email: `customer-${i}@example.com`,
      name: `Customer ${i}`,
      organization_id: organizationId,
      metadata: { plan: 'pro', seats: 3 },
      created_at: new Date().toISOString(),
      modified_at: null,
    });
    const sources = Array.from({ length: EVENTS }, (_, i) => ({
      id: randomUUID(),
      organizationId,
      type: 'customer.created',
      payload: payload(i),
      createdAt: new Date().toISOString(),
    }));
    const total = ENDPOINTS * EVENTS;

    const workerFlags = (process.env.BENCH_WEBHOOK_WORKER_FLAGS ?? '').split(/\s+/).filter(Boolean);
    worker = spawnNode(
      path.join(root, 'subgraphs', 'webhooks', 'worker.js'),
      [],
      {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        ENVIRONMENT: 'production',
        DATABASE_URL: databaseUrl,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      },
      workerFlags,
    );
    while (!worker.output().includes('webhook worker started')) {
      if (worker.process.exitCode !== null) throw new Error(`worker exited:\n${worker.output()}`);
      await new Promise(r => setTimeout(r, 50));
    }
    log(`webhooks: ${ENDPOINTS} endpoints × ${EVENTS} events through the worker`);
    const loadAverage = os
      .loadavg()
      .map(l => l.toFixed(2))
      .join(' ');
    // Timed from the moment the queue is full (ingestion commits in one transaction) to the last
    // delivery recorded: the worker's part only.
    await new InProcessWebhookIngest(orm).ingest(sources);
    const started = performance.now();
    const workerCpuBefore = cpuMs(worker.process.pid);
    const receiverCpuBefore = cpuMs(receiver.process.pid);
    // Polled every 10 ms (a count over a few thousand rows): at 50 ms the end was seen up to 6% late.
    while ((await delivered(orm)) < total) {
      if (worker.process.exitCode !== null) throw new Error(`worker exited:\n${worker.output()}`);
      await new Promise(r => setTimeout(r, 10));
    }
    const workerSeconds = (performance.now() - started) / 1000;
    const workerCpu = cpuMs(worker.process.pid) - workerCpuBefore;
    const receiverCpuWorker = cpuMs(receiver.process.pid) - receiverCpuBefore;
    // The worker's PostgreSQL sessions (opened for this run: their whole CPU time is its SQL).
    const sessions = await orm.em
      .fork()
      .execute<{ pid: number }[]>(`select pid from pg_stat_activity where datname = ? and application_name = ?`, [
        name,
        'billing-webhooks-worker',
      ]);
    const sqlCpu = sessions.reduce((sum, s) => sum + cpuMs(s.pid), 0);
    await worker.stop();
    worker = undefined;

    // The same bodies (as stored) and header sizes, one sequential stream per endpoint.
    const bodies = (
      await orm.em
        .fork()
        .execute<{ id: string; payload: string }[]>('select id, payload from webhooks.events order by position')
    ).map(r => ({ id: r.id, body: Buffer.from(r.payload) }));
    log('webhooks: the same deliveries with a bare node:http client');
    const agent = new http.Agent({ keepAlive: true, maxSockets: ENDPOINTS });
    const baselineStarted = performance.now();
    const clientCpuBefore = process.cpuUsage();
    const receiverCpuBaselineBefore = cpuMs(receiver.process.pid);
    await Promise.all(
      secrets.map(async secret => {
        for (const { id, body } of bodies) await post(agent, port, id, secret, body);
      }),
    );
    const baselineSeconds = (performance.now() - baselineStarted) / 1000;
    const clientCpuUsage = process.cpuUsage(clientCpuBefore);
    const clientCpu = (clientCpuUsage.user + clientCpuUsage.system) / 1000;
    const receiverCpuBaseline = cpuMs(receiver.process.pid) - receiverCpuBaselineBefore;
    agent.destroy();

    const perDelivery = (ms: number) => (ms / total).toFixed(3);
    const workerRate = total / workerSeconds;
    const baselineRate = total / baselineSeconds;
    const ratio = workerRate / baselineRate;
    return [
      '',
      `Webhook deliveries (${ENDPOINTS} endpoints × ${EVENTS} events, one in flight per endpoint, loopback receiver)`,
      table(
        ['target', 'deliveries', 'seconds', 'deliveries/s'],
        [
          ['w1 delivery worker (worker.js)', String(total), workerSeconds.toFixed(2), workerRate.toFixed(0)],
          ['w2 bare node:http client', String(total), baselineSeconds.toFixed(2), baselineRate.toFixed(0)],
        ],
      ),
      // CPU per delivery (Linux /proc; NaN elsewhere): on a shared machine these say more than the rates.
      `CPU ms per delivery: worker ${perDelivery(workerCpu)} + its PostgreSQL sessions ${perDelivery(sqlCpu)}, ` +
        `receiver ${perDelivery(receiverCpuWorker)}; client ${perDelivery(clientCpu)}, receiver ${perDelivery(receiverCpuBaseline)} ` +
        `(load average ${loadAverage})`,
      `target webhook-deliveries: ${ratio.toFixed(2)} (goal ${RATIO_TARGET}) ${ratio >= RATIO_TARGET ? 'met' : 'missed'}`,
      '',
    ].join('\n');
  } finally {
    await worker?.stop();
    await receiver.stop();
    await orm.close();
    await dropDatabase(serverUrl, name).catch(() => undefined);
  }
}

async function delivered(orm: Awaited<ReturnType<typeof openWebhooksOrm>>): Promise<number> {
  const [row] = await orm.em
    .fork()
    .execute<{ n: string }[]>("select count(*) as n from webhooks.messages where status = 'succeeded'");
  return Number(row.n);
}

/** CPU time (user + system) a process has used, from /proc (Linux; NaN elsewhere or once it is gone). */
function cpuMs(pid: number | undefined): number {
  try {
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th, in clock ticks (100/s).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

function post(agent: http.Agent, port: number, id: string, secret: string, body: Buffer): Promise<void> {
  const timestamp = Math.floor(Date.now() / 1000);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/hook',
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': WEBHOOK_USER_AGENT,
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(secret, id, timestamp, body),
          'content-length': String(body.length),
        },
      },
      response => {
        response.resume();
        response.on('end', () => resolve());
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

// Standalone: `node dist/bench/webhooks.js --database-url postgresql://…`
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const index = process.argv.indexOf('--database-url');
  const databaseUrl = index > 0 ? process.argv[index + 1] : process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('--database-url (or DATABASE_URL) is required');
  createLogger('silent');
  benchWebhooks({ databaseUrl, log: line => process.stderr.write(`[bench] ${line}\n`) }).then(
    out => process.stdout.write(out),
    error => {
      process.stderr.write(`${(error as Error).stack}\n`);
      process.exit(1);
    },
  );
}
