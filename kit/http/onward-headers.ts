import { requestIdHeader } from '../request-scope.js';
import { traceHeaders } from '../tracing/tracing.js';

/**
 * What a call to another process made while serving a request sends on: the request id
 * (docs/observability.md#request-ids) and, with tracing on, the trace context (`traceparent`).
 */
export function onwardHeaders(): Record<string, string> {
  return { ...requestIdHeader(), ...traceHeaders() };
}
