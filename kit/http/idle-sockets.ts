import type { Server } from 'node:http';

/**
 * Keeps a server's idle keep-alive sockets longer than its clients keep them. A client that pools
 * connections (undici behind `fetch`, the SDKs, the gateway's fetcher) reuses an idle socket until
 * the server's advertised timeout minus a margin; Node's default of 5 s left a loaded process closing
 * a socket while the client was already sending on it, which the client saw as `ECONNRESET`. 65 s is
 * what load balancers keep (60 s) plus a margin; a shutdown still closes idle sockets at once
 * (kit/process/run-service.ts).
 */
export function keepIdleSocketsLonger(server: Server): Server {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
