import { type PreparedServer, prepareServer, seedCrashMerchant } from '../support/crash-server.js';
import { type ServerProcess, startServer, stopServer, within } from '../support/embedded-server.js';
import { type ExportedSpan, type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';

/**
 * docs/observability.md#traces in the embedded topology: the built server (`npm start`'s
 * dist/embedded/main.js) with OTEL_EXPORTER_OTLP_ENDPOINT set exports one trace per request to a receiver
 * this test runs: the adapter's server span at the root; under it the principal's (when the bearer is
 * looked up, not answered by the cache), and the gateway's with the subgraph's under it (a client's POST
 * /graphql, the planned path) or the subgraph's alone (a REST list, the direct path, which runs no
 * gateway); the subgraph's PostgreSQL statements under that.
 */
jest.setTimeout(240_000);

let receiver: OtlpReceiver;
let prepared: PreparedServer;
let server: ServerProcess;
let sandboxUrl: string;
let token: string;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  prepared = await prepareServer('embedded-traces');
  ({ token } = await seedCrashMerchant(prepared.setup.sandboxUrl, {
    name: 'Traced',
    prices: [{ amount_type: 'fixed', price_amount: 900 }],
  }));
  server = startServer(prepared.setup, receiver.env());
  await within(server.ready, 120_000, 'the server serving', server);
  sandboxUrl = `http://127.0.0.1:${prepared.setup.port}`;
});

afterAll(async () => {
  if (server) await stopServer(server);
  await prepared?.remove();
  await receiver?.close();
});

/** The trace of the request answered with `requestId`: its root span and a way to find a child. */
async function traceOf(requestId: string | null) {
  const root = await receiver.until('the adapter span', () =>
    receiver.spans.find(s => s.attributes['billing.request_id'] === requestId),
  );
  const under = (parent: ExportedSpan, name: string) =>
    receiver.until(`${name} under ${parent.name}`, () =>
      receiver.spans.find(s => s.traceId === root.traceId && s.parentSpanId === parent.spanId && s.name === name),
    );
  return { root, under };
}

describe('traces in the embedded topology', () => {
  it('a REST read is one trace: adapter → principal, and adapter → subgraph (direct, no gateway) → PostgreSQL', async () => {
    const res = await fetch(`${sandboxUrl}/v1/products/?limit=1`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { items: unknown[] }).items).toHaveLength(1);
    const { root, under } = await traceOf(res.headers.get('x-request-id'));

    expect(root).toMatchObject({ service: 'billing', name: 'GET /v1/products/', parentSpanId: undefined });
    expect(root.attributes).toMatchObject({ 'http.route': '/v1/products/', 'http.response.status_code': '200' });
    const principal = await under(root, 'principal');
    expect((await under(principal, 'pg.query')).attributes['db.query.text']).toMatch(/\bfrom\b/i);
    // The direct path runs no gateway: the subgraph's span is the hop, and says which way it ran.
    const subgraph = await under(root, 'subgraph billing');
    expect(subgraph.attributes).toMatchObject({ 'billing.gateway.path': 'direct', 'billing.subgraph': 'billing' });
    expect(receiver.spans.filter(s => s.traceId === root.traceId && s.name === 'gateway')).toEqual([]);
    const statement = await under(subgraph, 'pg.query');
    expect(statement.attributes['db.system.name']).toBe('postgresql');
    expect(statement.attributes['db.query.text']).toMatch(/\bfrom billing\./i);
    // Statements carry their shape, never their values: the key MikroORM writes into the token lookup is gone.
    const texts = receiver.spans
      .filter(s => s.traceId === root.traceId && s.name === 'pg.query')
      .map(s => s.attributes['db.query.text']);
    expect(texts.length).toBeGreaterThanOrEqual(2);
    for (const text of texts) {
      expect(text).not.toMatch(/'[^']*'/);
      expect(text).not.toMatch(/[0-9a-f]{32}/);
    }
    // Every span of the request is in its trace, one process.
    expect(new Set(receiver.spans.filter(s => s.traceId === root.traceId).map(s => s.service))).toEqual(
      new Set(['billing']),
    );
  });

  it('a bearer the principal cache answers is not looked up again: no principal span, no token statement', async () => {
    // The first request looked the token up; this one, with the same bearer, is answered from the cache.
    const res = await fetch(`${sandboxUrl}/v1/products/?limit=1`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const { root, under } = await traceOf(res.headers.get('x-request-id'));
    await under(root, 'subgraph billing');
    // The root ends last and the exporter sends in order: every span of the trace has arrived with it.
    const trace = receiver.spans.filter(s => s.traceId === root.traceId);
    expect(trace.filter(s => s.name === 'principal')).toEqual([]);
    expect(trace.filter(s => s.parentSpanId === root.spanId).map(s => s.name)).toEqual(['subgraph billing']);
  });

  it("a client's GraphQL request runs through the gateway's plan, traced the same way", async () => {
    const res = await fetch(`${sandboxUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query Traced { products(limit: 1) { items { id name } } }' }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.products.items).toEqual([expect.objectContaining({ name: 'Traced' })]);
    const { root, under } = await traceOf(res.headers.get('x-request-id'));

    expect(root).toMatchObject({ name: 'POST /graphql', parentSpanId: undefined });
    const gateway = await under(root, 'gateway');
    expect(gateway.attributes).toMatchObject({ 'billing.gateway.path': 'planned', 'graphql.operation.name': '' });
    await under(await under(gateway, 'subgraph billing'), 'pg.query');
  });
});
