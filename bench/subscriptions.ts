// The subscription part of `npm run bench`: `GET /v1/subscriptions/` with filters, and the same
// operation sent as one GraphQL request, measured with 1,000 and then 100,000 subscriptions in the
// tenant's organization (seeded by bench/seed-subscriptions.ts), printing how latency changes.
//
//   (s1) REST, status filter (active|trialing), full page: total from the per-status counters
//   (s2) REST, status + metadata filter, full page: total from count(*) over the matches (GIN index)
//   (s3) POST /graphql, the SubscriptionsList operation with (s1)'s filter, through the gateway
//        (billing for the list and its embedded objects)
import path from 'node:path';
import { OperationDocuments } from '../rest-adapter/operations.js';
import { seedSubscriptions } from './seed-subscriptions.js';
import { type LoadOptions, type LoadResult, measure, table } from './support.js';

export interface SubscriptionBenchOptions {
  baseUrl: string;
  databaseUrl: string;
  organizationId: string;
  token: string;
  /** dist/ (where schema/operations was copied). */
  root: string;
  load: Omit<LoadOptions, 'url' | 'method' | 'headers' | 'body'>;
  sizes?: number[];
  log: (line: string) => void;
}

interface Target {
  label: string;
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers: Record<string, string>;
}

export async function benchSubscriptions(options: SubscriptionBenchOptions): Promise<string> {
  const sizes = options.sizes ?? [1_000, 100_000];
  const auth = { authorization: `Bearer ${options.token}` };
  const documents = new OperationDocuments(path.join(options.root, 'schema', 'operations'));
  const graphqlBody = JSON.stringify({
    query: documents.source('SubscriptionsList'),
    operationName: 'SubscriptionsList',
    variables: { filter: { status: ['active', 'trialing'] }, page: 1, limit: 10, sorting: ['-started_at'] },
  });
  const targets: Target[] = [
    {
      label: '(s1) REST ?status=active&status=trialing',
      url: `${options.baseUrl}/v1/subscriptions/?status=active&status=trialing`,
      headers: auth,
    },
    {
      label: '(s2) REST ?status=…&metadata[plan]=gold',
      url: `${options.baseUrl}/v1/subscriptions/?status=active&status=trialing&metadata%5Bplan%5D=gold`,
      headers: auth,
    },
    {
      label: '(s3) POST /graphql, (s1) as one query',
      url: `${options.baseUrl}/graphql`,
      method: 'POST',
      body: graphqlBody,
      headers: { ...auth, 'content-type': 'application/json' },
    },
  ];
  const results = new Map<string, LoadResult[]>();
  let seeded = 0;
  for (const size of sizes) {
    const seed = await seedSubscriptions({
      databaseUrl: options.databaseUrl,
      organizationId: options.organizationId,
      count: size - seeded,
    });
    options.log(`seeded ${size - seeded} subscriptions in ${seed.ms} ms (${size} in the organization)`);
    seeded = size;
    for (const target of targets) {
      const check = await fetch(target.url, {
        method: target.method ?? 'GET',
        headers: target.headers,
        body: target.body,
      });
      const json = (await check.json()) as {
        items?: unknown[];
        pagination?: { total_count: number };
        data?: { subscriptions: { pagination: { totalCount: number } } };
        errors?: unknown;
      };
      if (check.status !== 200 || json.errors)
        throw new Error(`${target.label} answered ${check.status}: ${JSON.stringify(json).slice(0, 500)}`);
      const total = json.pagination?.total_count ?? json.data?.subscriptions.pagination.totalCount;
      options.log(`${target.label} at ${size} rows (total_count ${total})…`);
      const result = await measure({
        ...options.load,
        url: target.url,
        method: target.method,
        headers: target.headers,
        body: target.body,
      });
      results.set(target.label, [...(results.get(target.label) ?? []), result]);
    }
  }
  const rows: string[][] = [];
  for (const target of targets) {
    const measured = results.get(target.label)!;
    sizes.forEach((size, i) => {
      const r = measured[i];
      const change = i === 0 ? '' : `×${(r.p50 / Math.max(measured[0].p50, 0.001)).toFixed(2)} p50`;
      rows.push([
        `${target.label} @ ${size.toLocaleString('en')}`,
        r.requestsPerSecond.toFixed(0),
        r.p50.toFixed(1),
        r.p99.toFixed(1),
        String(r.errors + r.non2xx),
        change,
      ]);
    });
  }
  return [
    '',
    `GET /v1/subscriptions/ (limit 10, default sorting -started_at) at ${sizes.map(s => s.toLocaleString('en')).join(' and ')} subscriptions of one organization`,
    '',
    table(['target', 'req/s', 'p50 ms', 'p99 ms', 'failed', `change vs ${sizes[0].toLocaleString('en')}`], rows),
    '',
  ].join('\n');
}
