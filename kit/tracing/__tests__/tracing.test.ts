import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { until } from '../../../test/support/until.js';
import { outsideRequest, requestIdHeader } from '../../request-scope.js';
import { childSpan, inSpan, serveTraced, startTracing, traceHeaders } from '../tracing.js';

/**
 * kit/tracing against a real OTLP/HTTP collector on loopback (docs/observability.md#traces): what a
 * collector receives is the contract, so every assertion reads the bodies it was sent.
 */
interface Received {
  headers: IncomingHttpHeaders;
  body: any;
}

let collector: Server;
let received: Received[] = [];
let answer = 200;
let stop: (() => Promise<void>) | null;

const spans = () =>
  received.flatMap(r => r.body.resourceSpans.flatMap((rs: any) => rs.scopeSpans.flatMap((ss: any) => ss.spans)));
const attributes = (span: any) =>
  Object.fromEntries(span.attributes.map((a: any) => [a.key, Object.values(a.value)[0]]));

beforeAll(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', chunk => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      if (answer === 200) received.push({ headers: req.headers, body: JSON.parse(body.toString('utf8')) });
      res.writeHead(answer, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>(resolve => collector.listen(0, '127.0.0.1', resolve));
  stop = await startTracing('tracing-test', {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}/`,
    OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=s%C3%A9cret,x-tenant=acme',
    OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test,service.name=ignored',
    OTEL_BSP_SCHEDULE_DELAY: '50',
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '4',
  });
});

afterAll(async () => {
  await stop?.();
  await new Promise(resolve => collector.close(resolve));
});

beforeEach(() => {
  received = [];
  answer = 200;
});

async function exported(count: number): Promise<any[]> {
  await until(() => spans().length >= count, 10_000, 20);
  expect(spans()).toHaveLength(count);
  return spans();
}

/**
 * One request's work: a server span, an in-process hop under it, and a statement under the hop; answers
 * what a call onwards from the hop would send (the request id and `traceparent`).
 */
function request(headers: IncomingHttpHeaders, fail = false): Promise<Record<string, string>> {
  return serveTraced('GET /things/42', 'req-42', headers, { 'http.request.method': 'GET' }, finish =>
    inSpan('gateway', { 'billing.subgraph': 'identity "ünïcode"' }, async () => {
      const statement = childSpan('pg.query', { 'db.system.name': 'postgresql', 'db.query.text': 'select ?' });
      await new Promise(resolve => setTimeout(resolve, 2));
      statement?.end();
      if (fail) throw new Error('the subgraph failed');
      return { ...requestIdHeader(), ...traceHeaders() };
    }).finally(() => finish(fail ? 500 : 200, '/things/{id}')),
  );
}

test('a request is one trace, exported to /v1/traces with the configured headers, gzip and resource', async () => {
  const before = Date.now();
  const onward = await request({});
  const [statement, gateway, server] = await exported(3);

  expect(received[0].headers).toMatchObject({
    'content-type': 'application/json',
    'content-encoding': 'gzip',
    'x-api-key': 'sécret',
    'x-tenant': 'acme',
  });
  expect(attributes(received[0].body.resourceSpans[0].resource)).toEqual({
    'telemetry.sdk.language': 'nodejs',
    'deployment.environment': 'test',
    'service.name': 'tracing-test',
  });
  expect(server).toMatchObject({ name: 'GET /things/{id}', kind: 2 });
  expect(server.parentSpanId).toBeUndefined();
  expect(attributes(server)).toEqual({
    'http.request.method': 'GET',
    'http.response.status_code': '200',
    'http.route': '/things/{id}',
  });
  expect(gateway).toMatchObject({ name: 'gateway', kind: 1, traceId: server.traceId, parentSpanId: server.spanId });
  expect(attributes(gateway)).toEqual({ 'billing.subgraph': 'identity "ünïcode"' });
  expect(statement).toMatchObject({ name: 'pg.query', kind: 3, traceId: server.traceId, parentSpanId: gateway.spanId });
  // The onward call continues the trace from the span that made it, sampled, and sends the request's id.
  expect(onward.traceparent).toBe(`00-${server.traceId}-${gateway.spanId}-01`);
  expect(onward['x-request-id']).toBe('req-42');
  for (const span of [statement, gateway, server]) {
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
    const [start, end] = [BigInt(span.startTimeUnixNano), BigInt(span.endTimeUnixNano)];
    expect(end >= start).toBe(true);
    expect(start >= BigInt(before - 5) * 1_000_000n && end <= BigInt(Date.now() + 5) * 1_000_000n).toBe(true);
  }
  expect(BigInt(statement.endTimeUnixNano) - BigInt(statement.startTimeUnixNano)).toBeGreaterThanOrEqual(1_000_000n);
});

test('work run outside the request (a background pass it woke) has neither its id nor its trace', async () => {
  const seen = await serveTraced('GET /things/42', 'req-43', {}, {}, finish => {
    const outside = outsideRequest(() => ({
      statement: childSpan('pg.query', { 'db.query.text': 'select ?' }),
      onward: { ...requestIdHeader(), ...traceHeaders() },
    }));
    finish(200);
    return outside;
  });
  expect(seen).toEqual({ statement: undefined, onward: {} });
  const [server] = await exported(1);
  expect(server.name).toBe('GET /things/42');
});

test("a caller's traceparent is continued, with its tracestate; a failure is an error with its exception", async () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  await expect(
    request({ traceparent: `00-${traceId}-00f067aa0ba902b7-01`, tracestate: 'vendor=x' }, true),
  ).rejects.toThrow('the subgraph failed');
  const [, gateway, server] = await exported(3);
  expect(server).toMatchObject({ traceId, parentSpanId: '00f067aa0ba902b7', traceState: 'vendor=x' });
  expect(server.status).toEqual({ code: 2 });
  expect(attributes(server)['http.response.status_code']).toBe('500');
  expect(gateway.status).toEqual({ code: 2 });
  expect(gateway.events).toHaveLength(1);
  expect(gateway.events[0].name).toBe('exception');
  expect(attributes(gateway.events[0])).toMatchObject({
    'exception.type': 'Error',
    'exception.message': 'the subgraph failed',
  });
});

test("a caller's decision not to sample is kept: nothing is recorded, and the next process is told", async () => {
  const traceId = '0af7651916cd43dd8448eb211c80319c';
  const onward = await request({ traceparent: `00-${traceId}-b7ad6b7169203331-00` });
  expect(onward.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
  // A sampled request after it is exported alone.
  await request({});
  expect((await exported(3)).every(span => span.traceId !== traceId)).toBe(true);
});

test('a malformed traceparent starts a new trace', async () => {
  await request({ traceparent: '00-zzzz-00f067aa0ba902b7-01' });
  const [, , server] = await exported(3);
  expect(server.parentSpanId).toBeUndefined();
});

test('a collector that refuses loses those spans and says so; the spans after reach it', async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.message);
  process.on('warning', onWarning);
  try {
    answer = 503;
    await request({});
    await until(() => warnings.length > 0, 10_000, 20);
    expect(warnings[0]).toMatch(/^traces not exported to http:\/\/127\.0\.0\.1:\d+: the collector answered 503/);
    answer = 200;
    await request({});
    expect(await exported(3)).toHaveLength(3);
  } finally {
    process.off('warning', onWarning);
  }
});
