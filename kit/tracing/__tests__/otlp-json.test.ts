import { performance } from 'node:perf_hooks';
import { BATCH_TAIL, batchHead, spanJson, unixNanos } from '../otlp-json.js';
import { Span, SpanKind, type SpanSink } from '../span.js';

/**
 * A span as OTLP/JSON text (docs/observability.md#traces): what a collector parses is the contract, so
 * each case reads the text back with JSON.parse.
 */
const sink: SpanSink = { onEnd: () => undefined };
const place = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) };

function written(span: Span): { json: any; bytes: Buffer } {
  const text = spanJson(span);
  const bytes = Buffer.from(text, 'latin1');
  // Stored as Latin-1 by span-batches.ts: only right if every character is ASCII.
  expect(bytes.toString('latin1')).toBe(text);
  return { json: JSON.parse(text), bytes };
}

const values = (json: any) => Object.fromEntries(json.attributes.map((a: any) => [a.key, a.value]));

describe('spanJson: OTLP/JSON in ASCII', () => {
  test('ids, kind, times in nanoseconds and every kind of attribute value', () => {
    const before = BigInt(Math.floor((performance.timeOrigin + performance.now()) * 1000)) * 1000n;
    const span = new Span(
      sink,
      'GET /v1/orders/',
      SpanKind.SERVER,
      { ...place, parentSpanId: 'c'.repeat(16) },
      {
        'http.request.method': 'GET',
        'http.response.status_code': 200,
        'billing.negative': -42,
        'billing.large': 2 ** 53,
        'billing.ratio': 0.25,
        'billing.flag': true,
        'billing.off': false,
      },
    );
    span.end();
    const { json } = written(span);
    expect(json).toMatchObject({
      traceId: place.traceId,
      spanId: place.spanId,
      parentSpanId: 'c'.repeat(16),
      name: 'GET /v1/orders/',
      kind: 2,
    });
    expect(json.status).toBeUndefined();
    expect(json.events).toBeUndefined();
    expect(values(json)).toEqual({
      'http.request.method': { stringValue: 'GET' },
      'http.response.status_code': { intValue: '200' },
      'billing.negative': { intValue: '-42' },
      'billing.large': { doubleValue: 2 ** 53 },
      'billing.ratio': { doubleValue: 0.25 },
      'billing.flag': { boolValue: true },
      'billing.off': { boolValue: false },
    });
    const [start, end] = [BigInt(json.startTimeUnixNano), BigInt(json.endTimeUnixNano)];
    expect(json.startTimeUnixNano).toMatch(/^\d{19}$/);
    expect(start >= before - 1_000_000n && start <= end).toBe(true);
    expect(end - start < 5_000_000_000n).toBe(true);
  });

  test('strings that need escaping, or are not ASCII, arrive as they were, in ASCII bytes', () => {
    const texts = [
      'quote " and backslash \\',
      'line\nbreak\ttab\u0001',
      'café ünïcödé 中文 🎉',
      `select "o0".* from "organization" as "o0" where "o0"."name" = ? ${'x'.repeat(100)}`,
      '',
    ];
    const span = new Span(
      sink,
      texts[2],
      SpanKind.CLIENT,
      { ...place, traceState: 'vendor=ä,other="1"' },
      {
        ...Object.fromEntries(texts.map((text, i) => [`text.${i}`, text])),
      },
    );
    span.end();
    const { json, bytes } = written(span);
    expect(bytes.every(byte => byte < 0x80)).toBe(true);
    expect(json.name).toBe(texts[2]);
    expect(json.traceState).toBe('vendor=ä,other="1"');
    expect(Object.values(values(json)).map((v: any) => v.stringValue)).toEqual(texts);
  });

  test('a failed span carries status 2 and its exception event', () => {
    const span = new Span(sink, 'pg.query', SpanKind.CLIENT, place, {});
    span.fail(new TypeError('bad "input"\nhere'));
    span.end();
    const { json } = written(span);
    expect(json.status).toEqual({ code: 2 });
    expect(json.attributes).toEqual([]);
    expect(json.events).toHaveLength(1);
    expect(json.events[0].name).toBe('exception');
    expect(json.events[0].timeUnixNano).toMatch(/^\d{19}$/);
    const event = values(json.events[0]);
    expect(event['exception.type']).toEqual({ stringValue: 'TypeError' });
    expect(event['exception.message']).toEqual({ stringValue: 'bad "input"\nhere' });
    expect(event['exception.stacktrace'].stringValue).toContain('TypeError: bad "input"');
  });

  test('a batch is the head, the spans and the tail: one OTLP request body', () => {
    const span = new Span(sink, 'one', SpanKind.INTERNAL, place, {});
    span.end();
    const body = Buffer.concat([
      batchHead({ 'service.name': 'billing', 'deployment.environment': 'tëst' }),
      written(span).bytes,
      BATCH_TAIL,
    ]);
    const json = JSON.parse(body.toString('latin1'));
    expect(values(json.resourceSpans[0].resource)).toEqual({
      'service.name': { stringValue: 'billing' },
      'deployment.environment': { stringValue: 'tëst' },
    });
    expect(json.resourceSpans[0].scopeSpans[0].spans.map((s: any) => s.name)).toEqual(['one']);
  });
});

describe('unixNanos', () => {
  test('a monotonic time as nanoseconds since the epoch, to the microsecond', () => {
    const now = performance.now();
    const text = unixNanos(now);
    expect(text).toMatch(/^\d{19}$/);
    const expected = Math.round((performance.timeOrigin + now) * 1000);
    expect(Math.abs(Number(BigInt(text) / 1000n) - expected)).toBeLessThanOrEqual(1);
    expect(text.endsWith('000')).toBe(true);
  });
});
