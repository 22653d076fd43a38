import type { NextFunction, Request, Response } from 'express';
import type { Route } from '../routes/route.js';
import { sendNotFound } from '../wire-errors.js';
import {
  type ApiVersion,
  DEFAULT_API_VERSION,
  isApiVersion,
  routeExistsIn,
  SUPPORTED_VERSIONS_HEADER,
} from './api-versions.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The version this request is answered in (`Polar-Version`, or the default). */
    apiVersion: ApiVersion;
  }
}

/**
 * The outermost check of every path, as Polar's (docs/api-versions.md#the-header): an unknown or
 * malformed `Polar-Version` is Polar's plain 404, with `Polar-Supported-Versions` so a developer can
 * tell it from a missing route; any other request is answered in its version, echoed on every answer.
 */
export function apiVersion(req: Request, res: Response, next: NextFunction): void {
  const requested = req.get('polar-version');
  if (requested !== undefined && !isApiVersion(requested)) {
    res.set('Polar-Supported-Versions', SUPPORTED_VERSIONS_HEADER);
    sendNotFound(res);
    return;
  }
  req.apiVersion = requested ?? DEFAULT_API_VERSION;
  res.set('Polar-Version', req.apiVersion);
  next();
}

/** Passes a route's requests on as an unknown path when the route does not exist in their version. */
export function existsInVersion(route: Route) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (routeExistsIn(req.apiVersion, route.operationId)) next();
    else next('route');
  };
}
