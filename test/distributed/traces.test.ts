import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { systemClock } from '../../kit/clock.js';
import { IdentityAdmin } from '../../subgraphs/identity/admin.js';
import { createTenant, type RunningEnvironment, TEST_SECRET } from '../support/stack.js';
import { identityRuntime, rest, useDistributedStack } from './support.js';

/**
 * docs/observability.md#traces in the distributed topology: with OTEL_EXPORTER_OTLP_ENDPOINT set, one
 * request through the REST adapter is one trace, exported over OTLP/HTTP by each process to a receiver
 * this test runs: the adapter's server span, under it identity's (the bearer) and the gateway's, under the
 * gateway's billing's, and under billing's its PostgreSQL statements.
 */
interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, string>;
}

const spans: ExportedSpan[] = [];
let receiver: Server;

/** OTLP/HTTP JSON (`POST /v1/traces`): resourceSpans → scopeSpans → spans. */
function collect(body: string): void {
  const payload = JSON.parse(body) as { resourceSpans?: any[] };
  for (const resource of payload.resourceSpans ?? []) {
    const service = resource.resource?.attributes?.find((a: any) => a.key === 'service.name')?.value?.stringValue;
    for (const scope of resource.scopeSpans ?? [])
      for (const span of scope.spans ?? [])
        spans.push({
          service,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          name: span.name,
          attributes: Object.fromEntries(
            (span.attributes ?? []).map((a: any) => [a.key, String(Object.values(a.value ?? {})[0])]),
          ),
        });
  }
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', chunk => (body += chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type']?.includes('json')) collect(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>(resolve => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise(resolve => receiver?.close(resolve));
});

useDistributedStack(() => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_BSP_SCHEDULE_DELAY: '100',
}));

async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const found = probe();
    if (found !== undefined) return found;
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  throw new Error(`never exported: ${what}\n${JSON.stringify(spans.slice(-20), null, 1)}`);
}

describe('traces across processes', () => {
  it('one request is one trace: adapter → identity and gateway → billing → PostgreSQL', async () => {
    const admin = new IdentityAdmin(identityRuntime!.orm, identityRuntime!.services, systemClock, TEST_SECRET);
    const { oat } = await createTenant({ admin, baseUrl: rest.url } as unknown as RunningEnvironment);
    const res = await fetch(`${rest.url}/v1/products/?limit=1`, { headers: { authorization: `Bearer ${oat}` } });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');

    const adapter = await until('the adapter span', () =>
      spans.find(s => s.service === 'rest-adapter' && s.attributes['billing.request_id'] === requestId),
    );
    expect(adapter).toMatchObject({ name: 'GET /v1/products/', parentSpanId: undefined });
    expect(adapter.attributes).toMatchObject({ 'http.route': '/v1/products/', 'http.response.status_code': '200' });
    const child = (service: string, parent: ExportedSpan) =>
      until(`${service} under ${parent.service}`, () =>
        spans.find(s => s.service === service && s.traceId === adapter.traceId && s.parentSpanId === parent.spanId),
      );
    expect((await child('identity', adapter)).name).toBe('POST /internal/principal');
    const gateway = await child('gateway', adapter);
    expect(gateway.name).toBe('POST /graphql');
    const billing = await child('billing', gateway);
    expect(billing.name).toBe('POST /graphql');
    const statement = await until('a billing statement', () =>
      spans.find(s => s.service === 'billing' && s.traceId === adapter.traceId && s.name === 'pg.query'),
    );
    expect(statement.attributes['db.system.name']).toBe('postgresql');
    expect(statement.attributes['db.query.text']).toMatch(/\bfrom\b/i);
    // Its parent is billing's request span or a span under it: never another trace.
    expect(spans.filter(s => s.traceId === adapter.traceId).map(s => s.service)).toEqual(
      expect.arrayContaining(['rest-adapter', 'identity', 'gateway', 'billing']),
    );
  });
});
