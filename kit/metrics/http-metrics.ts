import type { NextFunction, Request, Response } from 'express';
import { httpRequestDuration, httpRequests, metricsOn, statusClassOf } from './metrics.js';

/** The label of a request no route answered (404s, 405s, guards that answered before routing). */
export const UNMATCHED = 'unmatched';

/**
 * Counts and times every request of an Express app by the route's TEMPLATE (`/v1/customers/:id`),
 * read when the answer is finished: never the path itself, which carries ids, e-mails and tokens.
 * Routers are mounted at the root (rest-adapter/app.ts), so the route's own path is the whole template.
 */
export function httpMetrics(environment: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!metricsOn()) return next();
    const started = performance.now();
    res.once('finish', () => {
      const path = (req.route as { path?: unknown } | undefined)?.path;
      const endpoint = typeof path === 'string' ? path : path === undefined ? UNMATCHED : 'pattern';
      const status_class = statusClassOf(res.statusCode);
      httpRequests.inc({
        environment,
        endpoint,
        method: req.method,
        status_code: String(res.statusCode),
        status_class,
      });
      httpRequestDuration.observe(
        { environment, endpoint, method: req.method, status_class },
        (performance.now() - started) / 1000,
      );
    });
    next();
  };
}
