import { call } from '../support/stack.js';
import { alice, logsOf, parts, rest, useDistributedStack } from './support.js';

/**
 * docs/observability.md in the distributed topology: every process (identity, webhooks, billing, the
 * webhook worker, gateway, REST adapter) serves `/metrics` on a port of its own, labelled with its
 * ENVIRONMENT, with Node's runtime metrics and what that process does (the adapter's requests, each
 * subgraph's pool, billing's and webhooks' queues). The public port answers 404 for `/metrics`.
 */
useDistributedStack();

async function scrape(name: string): Promise<string> {
  const part = parts.find(p => p.name === name)!;
  const res = await fetch(part.metricsUrl);
  if (res.status !== 200) throw new Error(`${name}: ${res.status}\n${logsOf(part)}`);
  return res.text();
}

describe('metrics of each distributed process', () => {
  it('every process has its own endpoint, with Node runtime metrics', async () => {
    expect(parts.map(p => p.name).sort()).toEqual(
      ['billing', 'gateway', 'identity', 'rest-adapter', 'webhook-worker', 'webhooks'].sort(),
    );
    for (const part of parts) expect(await scrape(part.name)).toContain('process_resident_memory_bytes');
  });

  it('the REST adapter counts its requests by route template; the public port has no /metrics', async () => {
    expect(
      (await call(rest.url, 'GET', `/v1/organizations/${alice.organizationId}`, { token: alice.oat })).status,
    ).toBe(200);
    expect((await call(rest.url, 'GET', '/metrics')).status).toBe(404);
    const text = await scrape('rest-adapter');
    expect(text).toMatch(
      /polar_http_request_total\{environment="production",endpoint="\/v1\/organizations\/:id",method="GET",status_code="200",status_class="2xx"\} 1/,
    );
    expect(text).not.toContain(alice.organizationId);
  });

  it('subgraphs report their pool, billing and webhooks their queues', async () => {
    expect(await scrape('identity')).toMatch(
      /polar_db_pool_connections\{environment="production",pool="identity",state="max"\} \d+/,
    );
    const billing = await scrape('billing');
    expect(billing).toMatch(/polar_queue_size\{environment="production",queue="billing\.jobs"\} \d+/);
    expect(billing).toMatch(/polar_queue_size\{environment="production",queue="billing\.outbox"\} \d+/);
    for (const name of ['webhooks', 'webhook-worker'])
      expect(await scrape(name)).toMatch(/polar_queue_size\{environment="production",queue="webhooks\.delivery"\} \d+/);
  });
});
