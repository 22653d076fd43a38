import http from 'node:http';
import https from 'node:https';
import { gzipSync } from 'node:zlib';
import { BATCH_TAIL, batchHead, spanJson } from './otlp-json.js';
import type { Span, SpanSink } from './span.js';
import { SpanBatches } from './span-batches.js';

/**
 * Ended spans, batched and sent over OTLP/HTTP as JSON (docs/observability.md#traces), configured by
 * OpenTelemetry's standard variables: the endpoint, headers, timeout and compression of
 * `OTEL_EXPORTER_OTLP_*` (the `_TRACES_` form of each first), the batching of `OTEL_BSP_*`, and the
 * resource of `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`. A batch leaves when it is full or
 * `OTEL_BSP_SCHEDULE_DELAY` after its first span, one request at a time; a full queue drops new spans
 * (counted, and said with the next failure) rather than hold the requests that make them.
 */
export interface ExporterSettings {
  url: URL;
  headers: Record<string, string>;
  timeoutMs: number;
  gzip: boolean;
  scheduleDelayMs: number;
  maxQueueSize: number;
  maxBatchSize: number;
  resource: Record<string, string>;
}

/** The settings the environment gives, or null when no endpoint is configured (tracing off). */
export function exporterSettings(
  env: NodeJS.ProcessEnv,
  serviceName: string,
  warn: (message: string) => void,
): ExporterSettings | null {
  const url = tracesUrl(env);
  if (!url) return null;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (protocol && protocol !== 'http/json')
    warn(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: this service exports traces as http/json only`);
  const compression = env.OTEL_EXPORTER_OTLP_TRACES_COMPRESSION || env.OTEL_EXPORTER_OTLP_COMPRESSION || 'none';
  const number = (name: string, fallback: number) => {
    const value = Number(env[name]);
    if (env[name] === undefined || env[name] === '') return fallback;
    if (Number.isInteger(value) && value > 0) return value;
    warn(`${name}=${env[name]} is not a positive whole number: ${fallback}`);
    return fallback;
  };
  const maxQueueSize = number('OTEL_BSP_MAX_QUEUE_SIZE', 2048);
  return {
    url,
    headers: { ...keyValues(env.OTEL_EXPORTER_OTLP_HEADERS), ...keyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) },
    timeoutMs: number('OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', number('OTEL_EXPORTER_OTLP_TIMEOUT', 10_000)),
    gzip: compression === 'gzip',
    scheduleDelayMs: number('OTEL_BSP_SCHEDULE_DELAY', 5000),
    maxQueueSize,
    maxBatchSize: Math.min(number('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512), maxQueueSize),
    resource: {
      'telemetry.sdk.language': 'nodejs',
      ...keyValues(env.OTEL_RESOURCE_ATTRIBUTES),
      'service.name': env.OTEL_SERVICE_NAME || serviceName,
    },
  };
}

/** `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as it is, or `OTEL_EXPORTER_OTLP_ENDPOINT` with `/v1/traces` added. */
function tracesUrl(env: NodeJS.ProcessEnv): URL | null {
  const own = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const text = own || (base ? `${base.replace(/\/+$/, '')}/v1/traces` : '');
  if (!text) return null;
  const url = URL.canParse(text) ? new URL(text) : null;
  if (url && (url.protocol === 'http:' || url.protocol === 'https:')) return url;
  // A typo here would otherwise lose every trace in silence: the process does not start.
  const name = own ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  throw new Error(`${name}=${own || base} is not an http(s) URL`);
}

/** `key1=value1,key2=value2`, values percent-decoded, as the OTLP variables write headers and attributes. */
function keyValues(text: string | undefined): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const part of (text ?? '').split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    try {
      pairs[part.slice(0, at).trim()] = decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      pairs[part.slice(0, at).trim()] = part.slice(at + 1).trim();
    }
  }
  return pairs;
}

export class OtlpExporter implements SpanSink {
  private readonly batches: SpanBatches;
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> | undefined;
  private dropped = 0;
  private closing = false;
  private failures = 0;
  private lastWarnedAt = 0;
  private readonly agent: http.Agent;

  constructor(
    private readonly settings: ExporterSettings,
    private readonly warn: (message: string) => void,
  ) {
    const Agent = settings.url.protocol === 'https:' ? https.Agent : http.Agent;
    this.agent = new Agent({ keepAlive: true, maxSockets: 1 });
    this.batches = new SpanBatches(
      settings.maxBatchSize,
      settings.maxQueueSize,
      batchHead(settings.resource),
      BATCH_TAIL,
    );
  }

  onEnd(span: Span): void {
    if (!this.batches.add(spanJson(span))) {
      this.dropped += 1;
      return;
    }
    if (this.batches.full) this.sendSoon(0);
    else if (this.batches.size === 1) this.sendSoon(this.settings.scheduleDelayMs);
  }

  /** Sends every queued span, then closes the connection: the last thing a process does before it exits. */
  async shutdown(): Promise<void> {
    this.closing = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.sending;
    while (this.batches.size > 0) await this.send();
    this.agent.destroy();
  }

  private sendSoon(delayMs: number): void {
    if (this.sending || this.closing) return; // the send in flight looks at the queue again when it is done
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sending = this.send().finally(() => {
        this.sending = undefined;
        if (this.batches.full) this.sendSoon(0);
        else if (this.batches.size > 0) this.sendSoon(this.settings.scheduleDelayMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async send(): Promise<void> {
    const batch = this.batches.take();
    if (!batch) return;
    try {
      await this.post(this.settings.gzip ? gzipSync(batch.body) : batch.body);
      batch.release();
    } catch (error) {
      this.failed(batch.count, error);
    }
  }

  private post(body: Buffer): Promise<void> {
    const { url, headers, timeoutMs, gzip } = this.settings;
    const request = url.protocol === 'https:' ? https.request : http.request;
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent: this.agent,
          timeout: timeoutMs,
          signal: AbortSignal.timeout(timeoutMs),
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': body.length,
            ...(gzip ? { 'content-encoding': 'gzip' } : {}),
          },
        },
        res => {
          res.resume();
          res.once('end', () =>
            res.statusCode && res.statusCode < 300
              ? resolve()
              : reject(new Error(`the collector answered ${res.statusCode}`)),
          );
          res.once('error', reject);
        },
      );
      req.once('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.once('error', reject);
      req.end(body);
    });
  }

  /** Said at most once a minute, with what was lost since: a collector down must not flood the log. */
  private failed(spans: number, error: unknown): void {
    this.failures += spans;
    const now = Date.now();
    if (now - this.lastWarnedAt < 60_000) return;
    this.lastWarnedAt = now;
    const reason = error instanceof Error ? error.message : String(error);
    this.warn(
      `traces not exported to ${this.settings.url.origin}: ${reason} (${this.failures} spans lost, ${this.dropped} dropped on a full queue)`,
    );
    this.failures = 0;
    this.dropped = 0;
  }
}
