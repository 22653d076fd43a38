import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import { serveTraced } from '../tracing/tracing.js';
import { BodyTooLarge, requestIdOf, sendJson } from './http-util.js';
import { keepIdleSocketsLonger } from './idle-sockets.js';

export type Route = (req: IncomingMessage, res: ServerResponse, requestId: string) => Promise<void>;

/** Path (without query string) → method → route. */
export type Routes = Record<string, Partial<Record<string, Route>>>;

export const GRAPHQL_INTERNAL_ERROR = {
  errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR', http: { status: 500 } } }],
};

/**
 * The request listener of a bare node:http server. Echoes a plausible x-request-id (or assigns one),
 * serves the request under it (every log line carries it, calls onwards send it:
 * docs/observability.md#request-ids) and logs a `request` line when the answer is sent;
 * answers 404, 405 (with Allow), 413 for a body over readBody's limit, and 500 for a route that throws:
 * logged, with `internalError(path)` as the body, or the socket destroyed when the answer had begun.
 */
export function router(
  routes: Routes,
  logger: Logger,
  internalError: (path: string) => unknown = () => GRAPHQL_INTERNAL_ERROR,
) {
  return (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = requestIdOf(req);
    res.setHeader('x-request-id', requestId);
    const path = (req.url ?? '/').split('?')[0];
    const started = process.hrtime.bigint();
    const method = req.method ?? 'GET';
    const attributes = { 'http.request.method': method, 'url.path': path, 'billing.request_id': requestId };
    return serveTraced(`${method} ${path}`, requestId, req.headers, attributes, finish => {
      res.once('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        logger.info({ requestId, method, path, status: res.statusCode, ms }, 'request');
        finish(res.statusCode);
      });
      return serve(req, res, requestId, path);
    });
  };

  async function serve(req: IncomingMessage, res: ServerResponse, requestId: string, path: string): Promise<void> {
    const methods = routes[path];
    const route = methods?.[req.method ?? 'GET'];
    try {
      if (!methods) return sendJson(res, 404, { detail: 'Not Found' });
      if (!route)
        return sendJson(res, 405, { detail: 'Method Not Allowed' }, { allow: Object.keys(methods).join(', ') });
      await route(req, res, requestId);
    } catch (error) {
      if (error instanceof BodyTooLarge)
        return sendJson(res, 413, { detail: 'Request Entity Too Large' }, { connection: 'close' });
      logger.error({ err: error, requestId, path }, 'request failed');
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, internalError(path));
    }
  }
}

/**
 * A bare node:http server over `router`. Callers pool connections (the gateway's fetcher, undici in
 * the REST adapter): idle sockets are kept longer than they keep them, so a reused socket is never
 * one the server is closing.
 */
export function createRouterServer(...args: Parameters<typeof router>): Server {
  return keepIdleSocketsLonger(createServer(router(...args)));
}

/** `GET /healthz`: the process is up. */
export const healthz: Route = async (_req, res) => sendJson(res, 200, { status: 'ok' });
