import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (docs/observability.md), named as Polar names them where it has
 * them (`polar_http_request_total`, `polar_task_executions_total`, `polar_queue_size`, ...). Every
 * label is a fixed vocabulary (route templates, queue and job kind names, outcomes): never a token,
 * an e-mail or an id. Every metric carries `environment`, since the embedded process serves both.
 */
export const metricsRegistry = new Registry();

/**
 * Whether anything is recorded: only once the metrics endpoint listens (METRICS_PORT), so a process
 * without it does no counting at all (the HTTP middleware answers `next()` and nothing else).
 */
let recording = false;
export function metricsOn(): boolean {
  return recording;
}
export function turnMetricsOn(): void {
  recording = true;
}
/** When the endpoint stops listening (a process has one): nothing is recorded that no one can read. */
export function turnMetricsOff(): void {
  recording = false;
}

const registers = [metricsRegistry];

export const taskExecutions = new Counter({
  name: 'polar_task_executions_total',
  help: 'Background job executions, by queue, job kind and status (success, failure)',
  labelNames: ['environment', 'queue', 'task_name', 'status'] as const,
  registers,
});

export const taskDuration = new Histogram({
  name: 'polar_task_duration_seconds',
  help: 'Background job execution duration in seconds',
  labelNames: ['environment', 'queue', 'task_name'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers,
});

export const taskRetries = new Counter({
  name: 'polar_task_retries_total',
  help: 'Background jobs that failed and were scheduled again',
  labelNames: ['environment', 'queue', 'task_name'] as const,
  registers,
});

export const queueSize = new Gauge({
  name: 'polar_queue_size',
  help: 'Pending items of a queue (read on scrape)',
  labelNames: ['environment', 'queue'] as const,
  registers,
});

export const queueOldestAge = new Gauge({
  name: 'polar_queue_oldest_message_age_seconds',
  help: 'How long the oldest item that is due has waited past its due time, in seconds (0: none waits)',
  labelNames: ['environment', 'queue'] as const,
  registers,
});

export const webhookDeliveries = new Counter({
  name: 'polar_webhook_deliveries_total',
  help: 'Webhook delivery attempts, by outcome (succeeded, failed, released: handed back unsent)',
  labelNames: ['environment', 'outcome'] as const,
  registers,
});

export const renewals = new Counter({
  name: 'polar_renewals_total',
  help: 'Recurring-engine work items, by kind (cycle, resume, retry) and outcome (done, failed)',
  labelNames: ['environment', 'kind', 'outcome'] as const,
  registers,
});

export const charges = new Counter({
  name: 'polar_charges_total',
  help: 'Payment processor charges, by outcome (succeeded, failed, requires_action, pending, error)',
  labelNames: ['environment', 'outcome'] as const,
  registers,
});

export const poolConnections = new Gauge({
  name: 'polar_db_pool_connections',
  help: 'Database pool connections, by state (open, idle, max)',
  labelNames: ['environment', 'pool', 'state'] as const,
  registers,
});

export const poolWaiting = new Gauge({
  name: 'polar_db_pool_waiting_requests',
  help: 'Requests waiting for a connection of the pool',
  labelNames: ['environment', 'pool'] as const,
  registers,
});

/** `2xx`, `4xx`, ... */
export function statusClassOf(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}
