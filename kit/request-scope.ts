import { AsyncLocalStorage } from 'node:async_hooks';
import type { SpanContext } from './tracing/trace-context.js';

/**
 * What the running request's work carries across `await`s: its request id
 * (docs/observability.md#request-ids) and, with tracing on, the span it runs in
 * (docs/observability.md#traces). The logger adds the id to every line written while a request is
 * served, and the clients that call another process (the gateway, identity's principal endpoint, signed
 * JSON RPC) send it on as `x-request-id`, with the trace's `traceparent`. Both live in one store: each
 * `AsyncLocalStorage.run` copies the whole context (every storage's value) twice, on the way in and on
 * the way out, so one storage set once per hop costs about half what two did (docs/observability.md#cost).
 */
export interface RequestScope {
  readonly requestId: string | undefined;
  /** The span running (a recorded one, or the context of a trace the sampler left out); none when off. */
  readonly trace: SpanContext | undefined;
}

const scope = new AsyncLocalStorage<RequestScope>();

/** The running request's id; undefined outside a request (start-up, background loops). */
export function currentRequestId(): string | undefined {
  return scope.getStore()?.requestId;
}

/**
 * Runs `work` outside any request: what it schedules (a background pass, a timer) outlives the
 * request that happened to wake it, and must neither write that request's id into its logs nor put
 * its statements in that request's trace.
 */
export function outsideRequest<T>(work: () => T): T {
  return scope.exit(work);
}

/** `{ 'x-request-id': id }` inside a request, else nothing: for a call to another process. */
export function requestIdHeader(): Record<string, string> {
  const requestId = scope.getStore()?.requestId;
  return requestId === undefined ? {} : { 'x-request-id': requestId };
}

/** The running request's scope, for kit/tracing; undefined outside a request. */
export function currentScope(): RequestScope | undefined {
  return scope.getStore();
}

/**
 * Runs `work` (and everything it starts) in `next`: kit/tracing's way into a request (its id, and its
 * server span when tracing is on) and into a hop's span.
 */
export function inScope<T>(next: RequestScope, work: () => T): T {
  return scope.run(next, work);
}
