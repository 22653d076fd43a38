import { performance } from 'node:perf_hooks';
import type { AttributeValue, Span } from './span.js';

/**
 * OTLP/JSON (docs/observability.md#traces), written as text: a span's object is made when the span ends
 * (`spanJson`), and a batch is those texts between `batchHead` and `BATCH_TAIL`. Every string
 * is escaped to ASCII, so a text's length is its size in bytes and it is stored as Latin-1. Ids are hex, as
 * OTLP/JSON has them; times are decimal nanosecond strings; status is left out (unset) unless 2, an error.
 * Attribute keys are this service's own names.
 */
export function spanJson(span: Span): string {
  const parent = span.parentSpanId ? `"parentSpanId":"${span.parentSpanId}",` : '';
  const state = span.traceState ? `"traceState":${quoted(span.traceState)},` : '';
  const status = span.failed ? ',"status":{"code":2}' : '';
  return `{"traceId":"${span.traceId}","spanId":"${span.spanId}",${parent}${state}${headJson(span.name, span.kind)}${unixNanos(span.startedAt)}","endTimeUnixNano":"${unixNanos(span.endedAt ?? span.startedAt)}","attributes":${attributesJson(span.attributes)}${eventsJson(span)}${status}}`;
}

/**
 * A process's spans have a few dozen names (`pg.query`, a subgraph's, the routes'): what comes between
 * the ids and the start time is written once per name and kind (the index: SpanKind's wire number), and
 * the last few hundred of each kind are kept.
 */
const heads = Array.from({ length: 4 }, () => new Map<string, string>());
const MAX_HEADS = 256;

function headJson(name: string, kind: number): string {
  const ofKind = heads[kind];
  let head = ofKind.get(name);
  if (head === undefined) {
    if (ofKind.size >= MAX_HEADS) ofKind.clear();
    ofKind.set(name, (head = `"name":${quoted(name)},"kind":${kind},"startTimeUnixNano":"`));
  }
  return head;
}

/** What goes before a batch's spans: the resource (the process) and the scope. */
export function batchHead(resource: Record<string, string>): Buffer {
  return Buffer.from(
    `{"resourceSpans":[{"resource":{"attributes":${attributesJson(resource)}},"scopeSpans":[{"scope":{"name":"billing"},"spans":[`,
    'latin1',
  );
}

/** What goes after a batch's spans. */
export const BATCH_TAIL = Buffer.from(']}]}]}', 'latin1');

/** The `exception` event OpenTelemetry records for a span that failed with one. */
function eventsJson(span: Span): string {
  const exception = span.exception;
  if (!exception) return '';
  const attributes: Record<string, string> = {
    'exception.type': exception.type,
    'exception.message': exception.message,
  };
  if (exception.stack) attributes['exception.stacktrace'] = exception.stack;
  return `,"events":[{"name":"exception","timeUnixNano":"${unixNanos(exception.at)}","attributes":${attributesJson(attributes)}}]`;
}

function attributesJson(attributes: Record<string, AttributeValue>): string {
  let text = '';
  for (const key in attributes) {
    const value = attributes[key];
    const typed =
      typeof value === 'string'
        ? `"stringValue":${quoted(value)}`
        : typeof value === 'boolean'
          ? `"boolValue":${value}`
          : Number.isSafeInteger(value)
            ? `"intValue":"${value}"`
            : `"doubleValue":${Number.isFinite(value) ? value : quoted(String(value))}`;
    text += `${text === '' ? '' : ','}{"key":"${key}","value":{${typed}}}`;
  }
  return `[${text}]`;
}

/** Printable ASCII without quote or backslash needs no escaping: most strings, and cheaper to test than to escape. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const NOT_ASCII = /[^\x00-\x7f]/g;

/** Long strings that come again (a statement's text) are escaped once: the last few hundred are kept. */
const escaped = new Map<string, string>();
const MAX_ESCAPED = 256;
const LONG = 64;

/** `text` as a JSON string in ASCII: JSON.stringify's escapes, and \u escapes for everything past 0x7f. */
export function quoted(text: string): string {
  const long = text.length > LONG;
  let json = long ? escaped.get(text) : undefined;
  if (json !== undefined) return json;
  json = PLAIN.test(text) ? `"${text}"` : JSON.stringify(text).replace(NOT_ASCII, unicodeEscape);
  if (long) {
    if (escaped.size >= MAX_ESCAPED) escaped.clear();
    escaped.set(text, json);
  }
  return json;
}

const unicodeEscape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

// Times: microseconds since the epoch (exact in a double), written as seconds, then the rest as two
// zero-padded groups of three digits from a table: no number is turned into text but the seconds, whose
// text is kept while they last.
const ORIGIN_US = performance.timeOrigin * 1000;
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
let lastSecond = -1;
let lastSecondText = '';

export function unixNanos(monotonicMs: number): string {
  const micros = Math.round(ORIGIN_US + monotonicMs * 1000);
  const second = Math.floor(micros / 1e6);
  if (second !== lastSecond) {
    lastSecond = second;
    lastSecondText = String(second);
  }
  const rest = micros - second * 1e6;
  const millis = Math.floor(rest / 1000);
  return `${lastSecondText}${THREE_DIGITS[millis]}${THREE_DIGITS[rest - millis * 1000]}000`;
}
