import { performance } from 'node:perf_hooks';
import type { SpanContext } from './trace-context.js';

/** OTLP's span kinds, by their wire numbers. */
export const SpanKind = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const;
export type SpanKind = (typeof SpanKind)[keyof typeof SpanKind];

export type AttributeValue = string | number | boolean;

/** Where a span goes once ended: the exporter's queue. */
export interface SpanSink {
  onEnd(span: Span): void;
}

/** An exception recorded on a span, as OpenTelemetry's `exception` event has it. */
export interface SpanException {
  at: number;
  type: string;
  message: string;
  stack?: string;
}

/**
 * A sampled span being recorded (docs/observability.md#traces). Times are `performance.now()`
 * milliseconds, turned into Unix nanoseconds only when exported. Ending it a second time does nothing.
 */
/** Where a span sits in its trace. */
export interface SpanPlace {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
}

export class Span implements SpanContext {
  readonly sampled = true;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly traceState: string | undefined;
  readonly startedAt = performance.now();
  endedAt: number | undefined;
  failed = false;
  exception: SpanException | undefined;

  constructor(
    private readonly sink: SpanSink,
    public name: string,
    readonly kind: SpanKind,
    place: SpanPlace,
    readonly attributes: Record<string, AttributeValue>,
  ) {
    ({
      traceId: this.traceId,
      spanId: this.spanId,
      parentSpanId: this.parentSpanId,
      traceState: this.traceState,
    } = place);
  }

  setAttribute(key: string, value: AttributeValue): void {
    if (this.endedAt === undefined) this.attributes[key] = value;
  }

  updateName(name: string): void {
    if (this.endedAt === undefined) this.name = name;
  }

  /** Marks the span failed (OTLP status ERROR), with the exception as its event. */
  fail(error: unknown): void {
    if (this.endedAt !== undefined) return;
    this.failed = true;
    this.exception ??=
      error instanceof Error
        ? { at: performance.now(), type: error.name, message: error.message, stack: error.stack }
        : { at: performance.now(), type: 'Error', message: String(error) };
  }

  /** Marks the span failed without an exception: a request answered 5xx. */
  setError(): void {
    if (this.endedAt === undefined) this.failed = true;
  }

  end(): void {
    if (this.endedAt !== undefined) return;
    this.endedAt = performance.now();
    this.sink.onEnd(this);
  }
}
