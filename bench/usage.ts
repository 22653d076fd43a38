// Usage events and meters (`npm run bench`, target u; docs/performance.md#usage-events-and-meters).
//
//   (u1) POST /v1/events/ingest, batches of 100 events, through the whole embedded stack (REST adapter, gateway,
//        billing: validation, event types, the external-id dedupe, one statement);
//   (u2) a bare node:http + pg server doing the same multi-row INSERT (bench/usage-baseline-server.ts), side by
//        side in the same run; the service's peak RSS under (u1) is printed too;
//   (u3) GET /v1/meters/{id}/quantities, one month at daily interval, over BENCH_USAGE_EVENTS events (default
//        2,000,000; 10,000,000 is the figure) of one organization seeded by one generate_series insert;
//   (u4) the same quantities by hand-written SQL on a pg client (no HTTP): p50 of the same number of runs.
// No assertion on timing: it prints numbers and the goals they are read against.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, type LoadResult, measure, memoryOf, spawnNode, table } from './support.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface UsageBenchOptions {
  baseUrl: string;
  servicePid: number;
  databaseUrl: string;
  tenant: { organizationId: string; oat: string };
  load: { connections: number; warmupSeconds: number; seconds: number };
  log: (line: string) => void;
}

const BATCH = 100;
const EVENTS = Number(process.env.BENCH_USAGE_EVENTS ?? 2_000_000);
const QUANTITY_RUNS = Number(process.env.BENCH_USAGE_QUANTITY_RUNS ?? 30);

function batchBody(): string {
  const tag = randomBytes(3).toString('hex');
  return JSON.stringify({
    events: Array.from({ length: BATCH }, (_, i) => ({
      name: 'bench.call',
      external_customer_id: `bench-customer-${i % 20}`,
      metadata: { tokens: 10 + (i % 7), model: `m-${i % 3}`, run: tag },
    })),
  });
}

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchUsage(options: UsageBenchOptions): Promise<string> {
  const { baseUrl, tenant, log, load } = options;
  const auth = { authorization: `Bearer ${tenant.oat}`, 'content-type': 'application/json' };
  const body = batchBody();
  const first = await fetch(`${baseUrl}/v1/events/ingest`, { method: 'POST', headers: auth, body });
  if (first.status !== 200) throw new Error(`(u1) answered ${first.status}: ${await first.text()}`);

  const port = await freePort();
  const baseline = spawnNode(path.join(here, 'usage-baseline-server.js'), [], {
    PATH: process.env.PATH,
    BASELINE_DATABASE_URL: options.databaseUrl,
    BASELINE_PORT: String(port),
    BASELINE_ORGANIZATION_ID: tenant.organizationId,
    BASELINE_POOL_MAX: '10',
  });
  const lines: string[] = [];
  try {
    for (let i = 0; i < 100 && !baseline.output().includes('listening'); i++)
      await new Promise(r => setTimeout(r, 100));
    log('(u1) ingest through the service…');
    const u1 = await measure({
      ...load,
      url: `${baseUrl}/v1/events/ingest`,
      method: 'POST',
      headers: auth,
      body,
      serverPid: options.servicePid,
    });
    const memory = memoryOf(options.servicePid);
    log('(u2) the same inserts by a bare Node + pg server…');
    const u2 = await measure({
      ...load,
      url: `http://127.0.0.1:${port}/v1/events/ingest`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      serverPid: baseline.process.pid,
    });
    const row = (label: string, r: LoadResult) => [
      label,
      (r.requestsPerSecond * BATCH).toFixed(0),
      r.requestsPerSecond.toFixed(0),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      String(r.errors + r.non2xx),
      r.serverCpuUsPerRequest.toFixed(0),
    ];
    const ratio = u1.requestsPerSecond / u2.requestsPerSecond;
    lines.push(
      '',
      `Usage ingest, batches of ${BATCH}, ${load.connections} connections, ${load.seconds} s:`,
      table(
        ['target', 'events/s', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'server CPU µs/req'],
        [row('(u1) POST /v1/events/ingest', u1), row('(u2) bare Node + pg, same INSERT', u2)],
      ),
      `service peak RSS ${memory?.peakMb.toFixed(0) ?? '?'} MB`,
      `target ingest-vs-baseline: ${ratio.toFixed(2)} (goal 0.5) ${ratio >= 0.5 ? 'met' : 'missed'}`,
      `target ingest-events-per-second: ${(u1.requestsPerSecond * BATCH).toFixed(0)} (goal 10000) ${u1.requestsPerSecond * BATCH >= 10_000 ? 'met' : 'missed'}`,
    );
  } finally {
    await baseline.stop();
  }
  lines.push(...(await benchQuantities(options)));
  return `${lines.join('\n')}\n`;
}

/** (u3) and (u4): a month of events, seeded in one statement, counted by the API and by hand-written SQL. */
async function benchQuantities(options: UsageBenchOptions): Promise<string[]> {
  const { baseUrl, tenant, log } = options;
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    log(`(u3) seeding ${EVENTS.toLocaleString('en')} events over March 2026…`);
    const started = Date.now();
    await client.query(`select billing.ensure_usage_event_partition('2026-03-01T00:00:00Z')`);
    await client.query(
      `insert into billing.usage_events (id, organization_id, name, source, timestamp, ingested_at, external_customer_id, metadata)
       select gen_random_uuid(), $1, case when g % 10 = 0 then 'other' else 'api.call' end, 'user',
         timestamptz '2026-03-01T00:00:00Z' + (g * (interval '31 days' / $2)), now(), 'c-' || (g % 1000),
         jsonb_build_object('tokens', g % 100, 'model', 'm-' || (g % 5))
       from generate_series(0, $2 - 1) g`,
      [tenant.organizationId, EVENTS],
    );
    await client.query('analyze billing.usage_events');
    const seeded = ((Date.now() - started) / 1000).toFixed(0);
    const auth = { authorization: `Bearer ${tenant.oat}`, 'content-type': 'application/json' };
    const created = await fetch(`${baseUrl}/v1/meters/`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        name: 'Bench tokens',
        filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.call' }] },
        aggregation: { func: 'sum', property: 'tokens' },
      }),
    });
    const meter = (await created.json()) as { id: string };
    const url = `${baseUrl}/v1/meters/${meter.id}/quantities?start_timestamp=2026-03-01T00:00:00Z&end_timestamp=2026-03-31T00:00:00Z&interval=day`;
    const api: number[] = [];
    let apiTotal = 0;
    for (let i = 0; i < QUANTITY_RUNS + 2; i++) {
      const t = performance.now();
      const res = await fetch(url, { headers: auth });
      const json = (await res.json()) as { total: number };
      if (i >= 2) api.push(performance.now() - t);
      apiTotal = json.total;
    }
    const handWritten = `select b.day, coalesce(s.quantity, 0) as quantity from
      generate_series(timestamp '2026-03-01', timestamp '2026-03-31', interval '1 day') b(day)
      left join (select date_trunc('day', timestamp at time zone 'UTC') as day, sum((metadata->>'tokens')::float8) as quantity
        from billing.usage_events where organization_id = $1 and name = 'api.call'
          and jsonb_typeof(metadata->'tokens') = 'number'
          and timestamp >= '2026-03-01T00:00:00Z' and timestamp < '2026-04-01T00:00:00Z' group by 1) s on s.day = b.day
      order by b.day`;
    const sql: number[] = [];
    let sqlTotal = 0;
    for (let i = 0; i < QUANTITY_RUNS + 2; i++) {
      const t = performance.now();
      const result = await client.query(handWritten, [tenant.organizationId]);
      if (i >= 2) sql.push(performance.now() - t);
      sqlTotal = result.rows.reduce((n, r) => n + Number(r.quantity), 0);
    }
    const ratio = p50(api) / p50(sql);
    return [
      '',
      `Meter quantities, one month at daily interval, ${EVENTS.toLocaleString('en')} events (seeded in ${seeded} s), ${QUANTITY_RUNS} runs each:`,
      table(
        ['target', 'p50 ms', 'max ms', 'total'],
        [
          ['(u3) GET /v1/meters/{id}/quantities', p50(api).toFixed(1), Math.max(...api).toFixed(1), String(apiTotal)],
          ['(u4) hand-written SQL (pg, no HTTP)', p50(sql).toFixed(1), Math.max(...sql).toFixed(1), String(sqlTotal)],
        ],
      ),
      `target quantities-vs-sql: ${ratio.toFixed(2)} (goal ≤ 2) ${ratio <= 2 ? 'met' : 'missed'}`,
    ];
  } finally {
    await client.end();
  }
}
