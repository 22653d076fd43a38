import type { IncomingHttpHeaders } from 'node:http';
import type { Span, Tracer } from '@opentelemetry/api';
import type * as OtelApi from '@opentelemetry/api';

/**
 * OpenTelemetry traces (docs/observability.md#traces): a server span per request in the REST adapter,
 * the gateway and each subgraph, joined across processes by the W3C `traceparent` header, and a span per
 * PostgreSQL statement under them, exported over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set. Off, nothing is loaded: the SDK is imported only by
 * `startTracing`, and every hook below checks one variable first.
 */

interface On {
  api: typeof OtelApi;
  tracer: Tracer;
}
let on: On | null = null;

/** Whether this process exports traces. */
export const tracingOn = (): boolean => on !== null;

/**
 * Starts tracing for the process when an OTLP endpoint is configured; answers the flush-and-stop to run
 * at shutdown, or null (off). The exporter reads the standard OTEL_EXPORTER_OTLP_* variables itself.
 */
export async function startTracing(
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<(() => Promise<void>) | null> {
  if (on || !(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) return null;
  const [api, sdk, { OTLPTraceExporter }, contextHooks, core, resources, { samplerOf }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('./sampler.js'),
  ]);
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || serviceName }),
    sampler: samplerOf(env, sdk, message => process.emitWarning(message, 'TracingConfiguration')),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
  });
  api.context.setGlobalContextManager(new contextHooks.AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(provider);
  on = { api, tracer: api.trace.getTracer('billing') };
  const { traceStatements } = await import('./pg-spans.js');
  traceStatements();
  return () => provider.shutdown();
}

/** The span that is running (a request's, a statement's), or undefined: off, or outside a request. */
export function activeSpan(): Span | undefined {
  return on?.api.trace.getActiveSpan();
}

/**
 * Runs `serve` inside a server span continuing the caller's trace (its `traceparent`); `finish` ends the
 * span with the status (and, for the adapter, the route template) known once the answer is sent.
 */
export function serveTraced<T>(
  name: string,
  headers: IncomingHttpHeaders,
  attributes: Record<string, string>,
  serve: (finish: (status: number, route?: string) => void) => T,
): T {
  if (!on) return serve(() => undefined);
  const { api, tracer } = on;
  const parent = api.propagation.extract(api.context.active(), headers);
  const span = tracer.startSpan(name, { kind: api.SpanKind.SERVER, attributes }, parent);
  const finish = (status: number, route?: string) => {
    span.setAttribute('http.response.status_code', status);
    if (route) {
      span.setAttribute('http.route', route);
      span.updateName(`${attributes['http.request.method'] ?? ''} ${route}`.trim());
    }
    if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
    span.end();
  };
  return api.context.with(api.trace.setSpan(parent, span), () => serve(finish));
}

/** `traceparent` (and `tracestate`) of the running span, for a call to another process; nothing when off. */
export function traceHeaders(): Record<string, string> {
  if (!on) return {};
  const carrier: Record<string, string> = {};
  on.api.propagation.inject(on.api.context.active(), carrier);
  return carrier;
}

/**
 * Runs `work` in a client span under the running one (a PostgreSQL statement); untraced outside any span and
 * under a span the sampler left out, whose children every sampler offered would leave out too
 * (docs/observability.md#traces): no span is made for them.
 */
export function childSpan(name: string, attributes: Record<string, string>): Span | undefined {
  if (!on) return undefined;
  const { api, tracer } = on;
  if (!sampled(api, api.trace.getActiveSpan())) return undefined;
  return tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes });
}

/**
 * Runs `work` in an internal span under the running one: the embedded topology's in-process hops (the
 * gateway, a subgraph), which have no server span of their own because no HTTP request crosses them.
 * Off, outside any span, or under a span the sampler left out (as `childSpan`), `work` runs as it is.
 */
export function inSpan<T>(name: string, attributes: Record<string, string>, work: () => Promise<T>): Promise<T> {
  if (!on) return work();
  const { api, tracer } = on;
  const parent = api.context.active();
  if (!sampled(api, api.trace.getSpan(parent))) return work();
  const span = tracer.startSpan(name, { kind: api.SpanKind.INTERNAL, attributes }, parent);
  return api.context.with(api.trace.setSpan(parent, span), async () => {
    try {
      return await work();
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Whether `span`'s trace was sampled, by its context's flag rather than `isRecording()`: a library's own no-op
 * span (Apollo's gateway makes them) records nothing but carries a sampled trace on.
 */
function sampled(api: typeof OtelApi, span: Span | undefined): boolean {
  return span !== undefined && (span.spanContext().traceFlags & api.TraceFlags.SAMPLED) !== 0;
}

/** Marks `span` failed. */
export function failSpan(span: Span, error: unknown): void {
  if (!on) return;
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: on.api.SpanStatusCode.ERROR });
}
