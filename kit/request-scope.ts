import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request id of the request whose work is running, carried across `await`s (docs/observability.md#request-ids).
 * The logger adds it to every line written while a request is served, and the clients that call
 * another process (the gateway, identity's principal endpoint, signed JSON RPC) send it on as
 * `x-request-id`, so one id follows a request through every process's log.
 */
const scope = new AsyncLocalStorage<string>();

/** Runs `work` (and everything it starts) as part of request `requestId`. */
export function withRequestId<T>(requestId: string, work: () => T): T {
  return scope.run(requestId, work);
}

/** The running request's id; undefined outside a request (start-up, background loops). */
export function currentRequestId(): string | undefined {
  return scope.getStore();
}

/**
 * Runs `work` outside any request: what it schedules (a background pass, a timer) outlives the
 * request that happened to wake it and must not write that request's id into its logs.
 */
export function outsideRequest<T>(work: () => T): T {
  return scope.exit(work);
}

/** `{ 'x-request-id': id }` inside a request, else nothing: for a call to another process. */
export function requestIdHeader(): Record<string, string> {
  const requestId = scope.getStore();
  return requestId === undefined ? {} : { 'x-request-id': requestId };
}
