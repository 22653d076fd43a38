// The subscription part of `npm run bench`: `GET /v1/subscriptions/` unfiltered, with status filters and
// with every other filter of docs/interface.md#endpoints, the same page through POST /graphql, and the one-hop
// baseline running the same SQL (bench/baseline-server.ts), at 1,000 subscriptions and then (unless
// --quick) 1,000,000 in the tenant's organization (seeded in SQL by bench/seed-subscriptions.ts).
import path from 'node:path';
import pg from 'pg';
import { OperationDocuments } from '../rest-adapter/v1/operations.js';
import { seedSubscriptions, settleSubscriptions } from './seed-subscriptions.js';
import { type LoadOptions, type LoadResult, measure, sameJson, table } from './support.js';

export interface SubscriptionBenchOptions {
  baseUrl: string;
  baselineUrl: string;
  databaseUrl: string;
  organizationId: string;
  token: string;
  /** dist/ (where schema/operations was copied). */
  root: string;
  load: Omit<LoadOptions, 'url' | 'method' | 'headers' | 'body'>;
  sizes: number[];
  log: (line: string) => void;
}

export interface Goal {
  name: string;
  measured: number;
  goal: string;
  met: boolean;
  unit?: string;
  /** The measurement as printed, when a number and a unit do not say it. */
  shown?: string;
}

interface Target {
  label: string;
  /** A query string of GET /v1/subscriptions/ (REST and baseline) or a GraphQL body. */
  query?: string;
  graphql?: boolean;
  baseline?: boolean;
}

/** The runs, in order, and the goals they are read against. */
export async function benchSubscriptions(o: SubscriptionBenchOptions): Promise<{ report: string; goals: Goal[] }> {
  const auth = { authorization: `Bearer ${o.token}` };
  const documents = new OperationDocuments(path.join(o.root, 'schema', 'operations'));
  const graphqlBody = JSON.stringify({
    query: documents.source('SubscriptionsList'),
    operationName: 'SubscriptionsList',
    variables: { filter: { status: ['active', 'trialing'] }, page: 1, limit: 10, sorting: ['-started_at'] },
  });
  const results = new Map<string, LoadResult[]>();
  const goals: Goal[] = [];
  const seedTimes: string[] = [];
  let seeded = 0;
  let targets: Target[] = [];
  for (const size of o.sizes) {
    const seed = await seedSubscriptions({
      databaseUrl: o.databaseUrl,
      organizationId: o.organizationId,
      count: size - seeded,
    });
    o.log(`seeded ${size - seeded} subscriptions in ${seed.ms} ms (${size} in the organization)`);
    o.log(`vacuumed them and checkpointed in ${await settleSubscriptions(o.databaseUrl)} ms`);
    seedTimes.push(`${(size - seeded).toLocaleString('en')} rows in ${(seed.ms / 1000).toFixed(1)} s`);
    if (size - seeded >= 1_000_000)
      goals.push({
        name: 'seed 1,000,000 subscriptions',
        measured: seed.ms / 1000,
        goal: '< 60 s',
        met: seed.ms < 60_000,
        unit: 's',
      });
    seeded = size;
    if (!targets.length) targets = await filterTargets(o.databaseUrl, o.organizationId);
    for (const target of [...targets, { label: 'POST /graphql (status) same page', graphql: true }]) {
      const request = target.graphql
        ? {
            url: `${o.baseUrl}/graphql`,
            method: 'POST' as const,
            body: graphqlBody,
            headers: { ...auth, 'content-type': 'application/json' },
          }
        : { url: `${o.baseUrl}/v1/subscriptions/?${target.query}`, headers: auth };
      const check = await fetch(request.url, {
        method: request.method ?? 'GET',
        headers: request.headers,
        body: request.body,
      });
      const text = await check.text();
      if (check.status !== 200 || text.includes('"errors"'))
        throw new Error(`${target.label} answered ${check.status}: ${text.slice(0, 300)}`);
      o.log(`${target.label} at ${size} rows…`);
      results.set(target.label, [...(results.get(target.label) ?? []), await measure({ ...o.load, ...request })]);
      if (target.baseline && size === o.sizes[0]) {
        const url = `${o.baselineUrl}/v1/subscriptions/?${target.query}`;
        const [service, baseline] = await Promise.all([
          fetch(request.url, { headers: auth }).then(r => r.json()),
          fetch(url, { headers: auth }).then(r => r.json()),
        ]);
        if (!sameJson(service, baseline)) o.log(`WARNING: baseline JSON differs for ${target.label}`);
        o.log(`${target.label}: one-hop baseline…`);
        results.set(`${target.label} [baseline]`, [await measure({ ...o.load, url, headers: auth })]);
      }
    }
  }
  const rows: string[][] = [];
  const first = o.sizes[0];
  for (const [label, measured] of results) {
    measured.forEach((r, i) => {
      const change = i === 0 ? '' : `×${(r.p50 / Math.max(measured[0].p50, 0.001)).toFixed(2)} p50`;
      rows.push([
        `${label} @ ${(label.endsWith('[baseline]') ? first : o.sizes[i]).toLocaleString('en')}`,
        r.requestsPerSecond.toFixed(0),
        r.p50.toFixed(1),
        r.p99.toFixed(1),
        String(r.errors + r.non2xx),
        change,
      ]);
    });
  }
  for (const target of targets.filter(t => t.baseline)) {
    const ratio =
      results.get(target.label)![0].requestsPerSecond / results.get(`${target.label} [baseline]`)![0].requestsPerSecond;
    goals.push({
      name: `GET /v1/subscriptions/?${target.query || '(unfiltered)'} vs baseline @ ${first.toLocaleString('en')}`,
      measured: ratio,
      goal: '≥ 0.5',
      met: ratio >= 0.5,
    });
  }
  const statusTarget = targets.find(t => t.query?.startsWith('status='))!;
  const graphql = results.get('POST /graphql (status) same page')![0].requestsPerSecond;
  const graphqlRatio = graphql / results.get(`${statusTarget.label} [baseline]`)![0].requestsPerSecond;
  goals.push({
    name: `POST /graphql subscriptions page vs baseline @ ${first.toLocaleString('en')}`,
    measured: graphqlRatio,
    goal: '≥ 0.4',
    met: graphqlRatio >= 0.4,
  });
  if (o.sizes.length > 1) {
    const last = o.sizes[o.sizes.length - 1].toLocaleString('en');
    for (const target of targets.filter(t => t.baseline)) {
      const m = results.get(target.label)!;
      const growth = m[m.length - 1].p50 / Math.max(m[0].p50, 0.001);
      goals.push({
        name: `GET /v1/subscriptions/?${target.query || '(unfiltered)'} p50 @ ${last} / @ ${first.toLocaleString('en')}`,
        measured: growth,
        goal: '≤ 1.5',
        met: growth <= 1.5,
      });
    }
  }
  const report = [
    '',
    `GET /v1/subscriptions/ (limit 10, sorting -started_at) at ${o.sizes.map(s => s.toLocaleString('en')).join(' and ')} subscriptions of one organization; seeding: ${seedTimes.join(', ')}`,
    '',
    table(['target', 'req/s', 'p50 ms', 'p99 ms', 'failed', `change vs ${first.toLocaleString('en')}`], rows),
    '',
  ].join('\n');
  return { report, goals };
}

/** Unfiltered, status, and one request per other filter of docs/interface.md#endpoints with values from the seeded data. */
async function filterTargets(databaseUrl: string, organizationId: string): Promise<Target[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select s.product_id, s.customer_id, s.discount_id, c.external_id from billing.subscriptions s join billing.customers c on c.id = s.customer_id
       where s.organization_id = $1 and s.discount_id is not null limit 1`,
      [organizationId],
    );
    const r = rows[0];
    return [
      { label: 'REST unfiltered', query: '', baseline: true },
      { label: 'REST status=active|trialing', query: 'status=active&status=trialing', baseline: true },
      { label: 'REST active=true', query: 'active=true' },
      { label: 'REST cancel_at_period_end=true', query: 'cancel_at_period_end=true' },
      { label: 'REST product_id', query: `product_id=${r.product_id}` },
      { label: 'REST customer_id', query: `customer_id=${r.customer_id}` },
      { label: 'REST external_customer_id', query: `external_customer_id=${encodeURIComponent(r.external_id)}` },
      { label: 'REST discount_id', query: `discount_id=${r.discount_id}` },
      { label: 'REST customer_cancellation_reason', query: 'customer_cancellation_reason=too_expensive' },
      {
        label: 'REST canceled_at_after/before',
        query: 'canceled_at_after=2000-01-01T00:00:00Z&canceled_at_before=2100-01-01T00:00:00Z',
      },
      { label: 'REST metadata[plan]=gold', query: 'metadata%5Bplan%5D=gold' },
    ];
  } finally {
    await client.end();
  }
}
