import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OTLP/HTTP (JSON) trace receiver for the trace tests (docs/observability.md#traces): it keeps every
 * span exported to `POST /v1/traces` with its process's `service.name`, and `until` waits for the one a
 * test looks for (the exporter sends in batches, some time after the request has answered).
 */
export interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, string>;
}

export interface OtlpReceiver {
  spans: ExportedSpan[];
  /** The environment that points a process's exporter here, batches sent every 100 ms. */
  env(): Record<string, string>;
  until<T>(what: string, probe: () => T | undefined): Promise<T>;
  close(): Promise<void>;
}

/** OTLP/HTTP JSON: resourceSpans → scopeSpans → spans. */
function collect(body: string, spans: ExportedSpan[]): void {
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

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ExportedSpan[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', chunk => (body += chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type']?.includes('json')) collect(body, spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    spans,
    env: () => ({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    }),
    async until<T>(what: string, probe: () => T | undefined): Promise<T> {
      for (let attempt = 0; attempt < 400; attempt += 1) {
        const found = probe();
        if (found !== undefined) return found;
        await new Promise(resolve => setTimeout(resolve, 50));
      }
      throw new Error(`never exported: ${what}\n${JSON.stringify(spans.slice(-20), null, 1)}`);
    },
    close: () =>
      new Promise<void>(resolve => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
