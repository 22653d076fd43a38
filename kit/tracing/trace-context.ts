import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * W3C Trace Context (docs/observability.md#traces): the ids a span is known by and the `traceparent`
 * header that carries them, with the sampling decision, to the next process.
 */
export interface SpanContext {
  /** 32 lower-case hex digits, not all zero. */
  traceId: string;
  /** 16 lower-case hex digits, not all zero. */
  spanId: string;
  /** The trace's sampling decision (flag 01): a process after the first keeps it. */
  sampled: boolean;
  /** The caller's `tracestate`, passed on unread. */
  traceState?: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** The caller's span context from `traceparent` (and `tracestate`), or undefined when absent or malformed. */
export function extractContext(headers: IncomingHttpHeaders): SpanContext | undefined {
  const header = headers.traceparent;
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  const match = TRACEPARENT.exec(value);
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  // Version ff is invalid; version 00 has nothing after the flags; a later version may add fields.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  const state = headers.tracestate;
  const traceState = Array.isArray(state) ? state.join(',') : state;
  return { traceId, spanId, sampled: (Number.parseInt(flags, 16) & 1) === 1, ...(traceState ? { traceState } : {}) };
}

/** The headers that continue `context`'s trace in another process. */
export function injectContext(context: SpanContext, carrier: Record<string, string>): void {
  carrier.traceparent = `00-${context.traceId}-${context.spanId}-${context.sampled ? '01' : '00'}`;
  if (context.traceState) carrier.tracestate = context.traceState;
}

// Random ids are cut from one pool of hex digits filled by the CSPRNG: a refill per ~200 spans rather
// than a call each, and an id is a slice of the pool's text rather than a conversion of its own.
const POOL_BYTES = 2048;
let pool = '';
let used = 0;

function randomHex(digits: number, zero: string): string {
  if (used + digits > pool.length) {
    pool = randomBytes(POOL_BYTES).toString('hex');
    used = 0;
  }
  const id = pool.slice(used, used + digits);
  used += digits;
  return id === zero ? randomHex(digits, zero) : id;
}

export const newTraceId = (): string => randomHex(32, ZERO_TRACE);
export const newSpanId = (): string => randomHex(16, ZERO_SPAN);
