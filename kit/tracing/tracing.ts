import type { IncomingHttpHeaders } from 'node:http';
import { currentScope, inScope } from '../request-scope.js';
import type { OtlpExporter } from './otlp-exporter.js';
import type { Sampler } from './sampler.js';
import { type AttributeValue, Span, SpanKind } from './span.js';
import { extractContext, injectContext, newSpanId, newTraceId, type SpanContext } from './trace-context.js';

export type { Span };

/**
 * Traces (docs/observability.md#traces): a server span per request in the REST adapter, the gateway and
 * each subgraph, joined across processes by the W3C `traceparent` header, and a span per PostgreSQL
 * statement under them, exported over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set. The spans are this module's own, not an OpenTelemetry SDK's:
 * that SDK cost four times as much per request (docs/observability.md#cost). Off, nothing is loaded:
 * the exporter is imported only by `startTracing`, and every hook below checks one variable first.
 */

/** The running span, recorded (sampled) or only the context a trace left out carries on, is the request scope's `trace`. */
interface On {
  sampler: Sampler;
  exporter: OtlpExporter;
}
let on: On | null = null;

/** Whether this process exports traces. */
export const tracingOn = (): boolean => on !== null;

/**
 * Starts tracing for the process when an OTLP endpoint is configured; answers the flush-and-stop to run
 * at shutdown, or null (off).
 */
export async function startTracing(
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<(() => Promise<void>) | null> {
  if (on || !(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) return null;
  const [{ OtlpExporter, exporterSettings }, { samplerOf }, { traceStatements }] = await Promise.all([
    import('./otlp-exporter.js'),
    import('./sampler.js'),
    import('./pg-spans.js'),
  ]);
  const warn = (message: string) => process.emitWarning(message, 'TracingConfiguration');
  const settings = exporterSettings(env, serviceName, warn);
  if (!settings) return null;
  const exporter = new OtlpExporter(settings, message => process.emitWarning(message, 'TracingExport'));
  on = { sampler: samplerOf(env, warn), exporter };
  traceStatements();
  return async () => {
    on = null;
    await exporter.shutdown();
  };
}

/** The recorded span that is running (a request's, a statement's), or undefined: off, outside a request, or left out. */
export function activeSpan(): Span | undefined {
  const current = runningTrace();
  return current instanceof Span ? current : undefined;
}

/** The request scope's span (recorded, or a trace left out), when tracing is on. */
function runningTrace(): Span | SpanContext | undefined {
  return on ? currentScope()?.trace : undefined;
}

const unfinished = () => undefined;

/**
 * Serves request `requestId` (kit/request-scope.ts: its logs and calls onwards carry the id), inside a
 * server span continuing the caller's trace (its `traceparent`) when tracing is on; `finish` ends the
 * span with the status (and, for the adapter, the route template) known once the answer is sent. The
 * span keeps `attributes` (not a copy): each call passes its own.
 */
export function serveTraced<T>(
  name: string,
  requestId: string,
  headers: IncomingHttpHeaders,
  attributes: Record<string, string>,
  serve: (finish: (status: number, route?: string) => void) => T,
): T {
  if (!on) return inScope({ requestId, trace: undefined }, () => serve(unfinished));
  const parent = extractContext(headers);
  const traceId = parent?.traceId ?? newTraceId();
  if (!on.sampler(parent, traceId)) {
    const skipped: SpanContext = { traceId, spanId: newSpanId(), sampled: false, traceState: parent?.traceState };
    return inScope({ requestId, trace: skipped }, () => serve(unfinished));
  }
  const span = new Span(
    on.exporter,
    name,
    SpanKind.SERVER,
    { traceId, spanId: newSpanId(), parentSpanId: parent?.spanId, traceState: parent?.traceState },
    attributes,
  );
  const finish = (status: number, route?: string) => {
    span.setAttribute('http.response.status_code', status);
    if (route) {
      span.setAttribute('http.route', route);
      span.updateName(`${attributes['http.request.method'] ?? ''} ${route}`.trim());
    }
    if (status >= 500) span.setError();
    span.end();
  };
  return inScope({ requestId, trace: span }, () => serve(finish));
}

/** `traceparent` (and `tracestate`) of the running span, for a call to another process; nothing when off. */
export function traceHeaders(): Record<string, string> {
  const current = runningTrace();
  const carrier: Record<string, string> = {};
  if (current) injectContext(current, carrier);
  return carrier;
}

/**
 * A client span under the running one (a PostgreSQL statement), to be ended by the caller; none outside
 * any span and under a span the sampler left out, whose children every sampler offered would leave out
 * too (docs/observability.md#traces).
 */
export function childSpan(name: string, attributes: Record<string, AttributeValue>): Span | undefined {
  const parent = runningTrace();
  if (!on || !(parent instanceof Span)) return undefined;
  return new Span(on.exporter, name, SpanKind.CLIENT, under(parent), attributes);
}

/**
 * Runs `work` in an internal span under the running one: the embedded topology's in-process hops (the
 * gateway, a subgraph), which have no server span of their own because no HTTP request crosses them.
 * Off, outside any span, or under a span the sampler left out (as `childSpan`), `work` runs as it is.
 * The span keeps `attributes`, as `serveTraced`'s does.
 */
export function inSpan<T>(
  name: string,
  attributes: Record<string, AttributeValue>,
  work: () => Promise<T>,
): Promise<T> {
  const scope = on && currentScope();
  const parent = scope?.trace;
  if (!on || !(parent instanceof Span)) return work();
  const span = new Span(on.exporter, name, SpanKind.INTERNAL, under(parent), attributes);
  // One reaction on `work`'s promise rather than an async wrapper: two fewer promises per hop.
  return inScope({ requestId: scope?.requestId, trace: span }, () => {
    let running: Promise<T>;
    try {
      running = work();
    } catch (error) {
      span.fail(error);
      span.end();
      throw error;
    }
    return running.then(
      value => {
        span.end();
        return value;
      },
      error => {
        span.fail(error);
        span.end();
        throw error;
      },
    );
  });
}

/** A new span's place under `parent`, in its trace. */
function under(parent: Span) {
  return { traceId: parent.traceId, spanId: newSpanId(), parentSpanId: parent.spanId, traceState: parent.traceState };
}
