import { systemClock } from '../../kit/clock.js';
import { IdentityAdmin } from '../../subgraphs/identity/admin.js';
import { type ExportedSpan, type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';
import { createTenant, type RunningEnvironment, TEST_SECRET } from '../support/stack.js';
import { identityRuntime, rest, useDistributedStack } from './support.js';

/**
 * docs/observability.md#traces in the distributed topology: with OTEL_EXPORTER_OTLP_ENDPOINT set, one
 * request through the REST adapter is one trace, exported over OTLP/HTTP by each process to a receiver
 * this test runs: the adapter's server span; under it the adapter's principal span (identity's, the bearer,
 * under that) and the gateway's; under the gateway's billing's, and under billing's its PostgreSQL statements.
 */
let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver?.close());

useDistributedStack(() => receiver.env());

describe('traces across processes', () => {
  it('one request is one trace: adapter → identity and gateway → billing → PostgreSQL', async () => {
    const admin = new IdentityAdmin(identityRuntime!.orm, identityRuntime!.services, systemClock, TEST_SECRET);
    const { oat } = await createTenant({ admin, baseUrl: rest.url } as unknown as RunningEnvironment);
    const res = await fetch(`${rest.url}/v1/products/?limit=1`, { headers: { authorization: `Bearer ${oat}` } });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');

    const adapter = await receiver.until('the adapter span', () =>
      receiver.spans.find(s => s.service === 'rest-adapter' && s.attributes['billing.request_id'] === requestId),
    );
    expect(adapter).toMatchObject({ name: 'GET /v1/products/', parentSpanId: undefined });
    expect(adapter.attributes).toMatchObject({ 'http.route': '/v1/products/', 'http.response.status_code': '200' });
    const child = (service: string, parent: ExportedSpan) =>
      receiver.until(`${service} under ${parent.service}`, () =>
        receiver.spans.find(
          s => s.service === service && s.traceId === adapter.traceId && s.parentSpanId === parent.spanId,
        ),
      );
    // The adapter's own span for resolving the bearer, and under it identity's, which resolved it.
    const principal = await child('rest-adapter', adapter);
    expect(principal.name).toBe('principal');
    expect((await child('identity', principal)).name).toBe('POST /internal/principal');
    const gateway = await child('gateway', adapter);
    expect(gateway.name).toBe('POST /graphql');
    const billing = await child('billing', gateway);
    expect(billing.name).toBe('POST /graphql');
    const statement = await receiver.until('a billing statement', () =>
      receiver.spans.find(s => s.service === 'billing' && s.traceId === adapter.traceId && s.name === 'pg.query'),
    );
    expect(statement.attributes['db.system.name']).toBe('postgresql');
    expect(statement.attributes['db.query.text']).toMatch(/\bfrom\b/i);
    // Its parent is billing's request span or a span under it: never another trace.
    expect(receiver.spans.filter(s => s.traceId === adapter.traceId).map(s => s.service)).toEqual(
      expect.arrayContaining(['rest-adapter', 'identity', 'gateway', 'billing']),
    );
  });
});
