import express, { type NextFunction, type Request, type Response } from 'express';
import { DomainError, RequestValidationError } from '../kit/errors.js';
import { authorize } from '../kit/graphql/authorize.js';
import { graphQLRequestOf } from '../kit/http/graphql-http.js';
import { requestIdOf } from '../kit/http/http-util.js';
import { serveTraced } from '../kit/tracing/tracing.js';
import type { Logger } from '../kit/logger.js';
import { httpMetrics } from '../kit/metrics/http-metrics.js';
import type { Principal, PrincipalResolver } from '../kit/principal.js';
import type { GatewayClient } from './upstream/gateway-client.js';
import { graphqlExplorerRouter } from './graphql-explorer/explorer-page.js';
import { docsRouter } from './v1/openapi/docs-page.js';
import type { RequestGuards } from './guards/request-guards.js';
import { sameOriginWrites } from './guards/same-origin-writes.js';
import { OperationDocuments } from './v1/operations.js';
import { POLAR_ORGANIZATION, principalOfRequest } from './v1/polar-organization.js';
import { type Route, shapeResult } from './v1/routes/route.js';
import { checkJson, decodablePath, parseOrThrow, queryObject } from './v1/validation.js';
import { readCookie, sessionCookieName } from './web-kit/cookies.js';
import { sendError, sendMethodNotAllowed, sendNotFound } from './v1/wire-errors.js';
import { versionedOpenApiRouter } from './v1/versions/openapi-routes.js';
import { shapeForVersion } from './v1/versions/shape-for-version.js';
import { apiVersion, existsInVersion } from './v1/versions/version-middleware.js';

export interface AppDependencies {
  /** Public base URL of the environment: an `Origin` equal to it is this site's (same-origin-writes.ts). */
  publicUrl?: string;
  /** Facts an operator must see on /readyz (which payment processor takes the money). */
  announcements?: Record<string, unknown>;
  environment: 'production' | 'sandbox';
  gateway: GatewayClient;
  principals: PrincipalResolver;
  routes: Route[];
  operations: OperationDocuments;
  logger: Logger;
  /** True when the database answers (GET /readyz). */
  ready: () => Promise<boolean>;
  openapi: () => object;
  docsPage: () => string;
  /** Extra routers (OAuth pages and endpoints) mounted before the API routes. */
  extensions?: express.Router[];
  /** Rate limits and idempotency keys (rest-adapter/guards/request-guards.ts). */
  guards?: RequestGuards;
  /** Routers that read their body raw (a signature over the exact bytes), mounted before the body parsers. */
  rawBodyRouters?: express.Router[];
}

declare module 'express-serve-static-core' {
  interface Request {
    principal: Principal;
    requestId: string;
    /** Set once the body parsers are past: an error before that is the body's (errorHandler). */
    bodyRead?: boolean;
  }
}

const MAX_BODY = '1mb';
/** The media types the API reads as JSON, as FastAPI does: `application/json` and `application/*+json`. */
const JSON_TYPES = ['application/json', 'application/*+json'];

/** The HTTP face of one environment. No `listen` here: main.ts and the tests own the socket. */
export function createApp(deps: AppDependencies): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', false); // we parse repeated and deep keys ourselves (validation.ts)

  // First, so that every answer is counted, the guards' and the 404s' too (docs/observability.md).
  app.use(httpMetrics(deps.environment));
  app.use(requestContext(deps));
  // Outermost after CORS, as Polar's: a bad version is a 404 on every path (docs/api-versions.md).
  app.use(apiVersion);
  app.use((req: Request, _res: Response, next: NextFunction) => {
    req.url = decodablePath(req.url);
    next();
  });
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    const ok = await deps.ready().catch(() => false);
    res
      .status(ok ? 200 : 503)
      .json({ status: ok ? 'ok' : 'unavailable', ...deps.guards?.readiness(), ...deps.announcements });
  });
  for (const guard of deps.guards?.early ?? []) app.use(guard);
  app.use(versionedOpenApiRouter(deps.openapi));
  app.use(docsRouter(deps.docsPage, deps.openapi));
  app.use(graphqlExplorerRouter(deps.environment));

  for (const router of deps.rawBodyRouters ?? []) app.use(router);
  // The documented API reads only JSON bodies (`application/json` or `application/*+json`, any charset
  // the parser knows): any other body is read as text and refused by the route that wants a body
  // (`refuseNonJsonBody`), so no form, `text/plain` or body without a type, which a page of another site
  // can post without asking the browser first, ever reaches an operation. /graphql reads every body as
  // JSON and answers 400 unless the type is JSON. Elsewhere (the web pages, OAuth endpoints) a form post
  // is parsed as a form.
  const paths = routePatterns(deps.routes);
  const isRoutePath = (path: string) => paths.some(p => p.regex.test(path));
  const isApiPath = (path: string) => path === '/graphql' || isRoutePath(path);
  // The content type first: it is one header lookup, the path test walks the route table.
  const isForm = (req: Request) =>
    typeof req.is('application/x-www-form-urlencoded') === 'string' && !isApiPath(req.path);
  const isJson = (req: Request) => typeof req.is(JSON_TYPES) === 'string';
  app.use(express.urlencoded({ limit: MAX_BODY, extended: false, type: req => isForm(req as Request) }));
  app.use(
    express.json({
      limit: MAX_BODY,
      type: req => isJson(req as Request) || (!isForm(req as Request) && !isRoutePath((req as Request).path)),
      strict: false,
    }),
  );
  app.use(
    express.text({ limit: MAX_BODY, type: req => !isJson(req as Request) && isRoutePath((req as Request).path) }),
  );
  app.use((req: Request, _res: Response, next: NextFunction) => {
    req.bodyRead = true;
    next();
  });
  app.use(resolvePrincipal(deps.principals, sessionCookieName(deps.environment), deps.logger, isApiPath));
  app.use(sameOriginWrites({ publicUrl: deps.publicUrl, inScope: isApiPath }));
  for (const guard of deps.guards?.afterPrincipal(isApiPath) ?? []) app.use(guard);

  app.post('/graphql', graphqlHandler(deps));
  // A browser got the explorer above; a program's GET is refused: queries are POSTed (docs/graphql.md#get-graphql).
  app.get('/graphql', (_req, res) => void res.set('Allow', 'POST').status(405).json(GET_REFUSED));
  for (const route of deps.routes) {
    app[route.method](expressPath(route.path), existsInVersion(route), routeHandler(route, deps));
  }
  // The pages and OAuth endpoints come after the API routes: their paths never overlap, so an API
  // request need not walk their route layers first.
  for (const router of deps.extensions ?? []) app.use(router);
  app.use(methodNotAllowed(paths));
  app.use((_req: Request, res: Response) => sendNotFound(res));
  app.use(errorHandler(deps.logger));
  return app;
}

function requestContext(deps: AppDependencies) {
  return (req: Request, res: Response, next: NextFunction) => {
    req.requestId = requestIdOf(req);
    res.set('X-Request-Id', req.requestId);
    res.set('Cache-Control', 'private, no-store');
    if (deps.environment === 'sandbox') res.set('X-Polar-Sandbox', '1');
    res.set('Access-Control-Allow-Origin', '*');
    res.set(
      'Access-Control-Allow-Headers',
      'Authorization, Content-Type, Polar-Version, Polar-Organization, Idempotency-Key',
    );
    res.set(
      'Access-Control-Expose-Headers',
      'Polar-Version, Polar-Supported-Versions, Retry-After, Idempotent-Replayed',
    );
    if (req.method === 'OPTIONS') {
      res.set('Access-Control-Allow-Methods', 'GET, POST, PATCH, PUT, DELETE, OPTIONS');
      res.status(204).end();
      return;
    }
    const started = process.hrtime.bigint();
    const attributes = { 'http.request.method': req.method, 'billing.request_id': req.requestId };
    // Everything the request does from here, awaits included, logs and forwards this id, and runs in
    // its trace when tracing is on (docs/observability.md#request-ids).
    serveTraced(req.method, req.requestId, req.headers, attributes, finish => {
      res.on('finish', () => {
        deps.logger.info(
          {
            requestId: req.requestId,
            method: req.method,
            path: req.path,
            status: res.statusCode,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          },
          'request',
        );
        finish(res.statusCode, req.route ? `${req.baseUrl}${req.route.path}` : 'unmatched');
      });
      next();
    });
  };
}

/**
 * The request's principal: its credential resolved, then, on the API (the /v1 routes and /graphql), its
 * `Polar-Organization` header applied (docs/principals.md#polar-organization), so every operation and
 * every subgraph behind it sees the narrowed principal. The pages and OAuth endpoints do not read it.
 */
function resolvePrincipal(
  resolver: PrincipalResolver,
  cookieName: string,
  logger: Logger,
  isApiPath: (path: string) => boolean,
) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      // A cookie value that does not decode (`%zz`) is no session, as an unknown one is: anonymous.
      // In a trace, a lookup the resolver's cache cannot answer is its own span (docs/observability.md#traces).
      const principal = await resolver.resolve(req.get('authorization'), readCookie(req, cookieName));
      const organization = req.get(POLAR_ORGANIZATION);
      req.principal =
        organization === undefined || !isApiPath(req.path) ? principal : principalOfRequest(principal, organization);
      next();
    } catch (error) {
      // An unknown bearer is a domain error; anything else (a database wait that ran out: 503) is logged.
      if (!(error instanceof DomainError)) logger.error({ err: error, requestId: req.requestId }, 'principal failed');
      sendError(res, error);
    }
  };
}

function routeHandler(route: Route, deps: AppDependencies) {
  const source = deps.operations.source(route.operation);
  return async (req: Request, res: Response) => {
    try {
      authorize(req.principal, route.access);
      const params = route.params ? parseOrThrow(route.params, 'path', req.params) : {};
      const query = route.query
        ? parseOrThrow(
            route.query,
            'query',
            queryObject(new URL(req.originalUrl, 'http://local').searchParams, route.query),
          )
        : {};
      let body: unknown;
      if (route.body) {
        const raw = refuseNonJsonBody(req);
        if (raw === undefined && route.bodyOptional) body = {};
        else if (raw === undefined)
          throw new RequestValidationError([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
        else body = route.bodyShapeCheckedBySubgraph ? checkJson('body', raw) : parseOrThrow(route.body, 'body', raw);
      }
      const result = await deps.gateway.execute(
        { query: source, operationName: route.operation, variables: route.variables({ params, query, body }) },
        req.principal,
        req.requestId,
      );
      if (result.errors?.length || !result.data) {
        const error = result.errors?.[0];
        if (!error?.extensions?.http?.status || error.extensions.http.status >= 500) {
          deps.logger.error({ requestId: req.requestId, errors: result.errors }, 'operation failed');
        }
        sendError(res, error);
        return;
      }
      // The client has gone (it gave up waiting, or closed the page): nobody reads the body, and shaping
      // and serialising it was half of what a big page costs. Under a burst of slow requests, the
      // ones that timed out would otherwise keep the process busy for the ones still waiting.
      if (req.socket.destroyed) return;
      const payload = shapeForVersion(req.apiVersion, route.operationId, shapeResult(route, result.data));
      res.status(route.status);
      if (payload === undefined) res.end();
      else if (route.contentType) {
        // A fixed ASCII name, quoted as Polar quotes it.
        if (route.attachment) res.set('Content-Disposition', `attachment; filename="${route.attachment}"`);
        res.type(route.contentType).send(payload);
      } else res.json(payload);
    } catch (error) {
      if (!(error instanceof Error) || !('status' in error))
        deps.logger.error({ err: error, requestId: req.requestId }, 'route failed');
      sendError(res, error);
    }
  };
}

/**
 * The body of a route that takes one: the parsed JSON, or undefined when nothing was sent. A body of
 * any other type (read as text by the app's parser) is a 422 at `body` as FastAPI answers it, with the
 * text as the input: Polar validates such a body as raw bytes, which no body model accepts.
 */
function refuseNonJsonBody(req: Request): unknown {
  if (typeof req.is(JSON_TYPES) === 'string' || req.body === undefined) return req.body;
  if (req.body === '') return undefined;
  throw new RequestValidationError([
    {
      type: 'model_attributes_type',
      loc: ['body'],
      msg: 'Input should be a valid dictionary or object to extract fields from',
      input: req.body,
    },
  ]);
}

const GET_REFUSED = {
  errors: [
    {
      message: 'Send GraphQL requests as POST /graphql with a JSON body; open /graphql in a browser for the explorer.',
      extensions: { code: 'METHOD_NOT_ALLOWED' },
    },
  ],
};

function graphqlHandler(deps: AppDependencies) {
  return async (req: Request, res: Response) => {
    const request = req.is('application/json') ? graphQLRequestOf(req.body) : undefined;
    if (!request) {
      res.status(400).json({
        errors: [
          {
            message: 'POST a JSON body {"query": "...", "variables": {...}} with Content-Type: application/json.',
            extensions: { code: 'BAD_REQUEST' },
          },
        ],
      });
      return;
    }
    try {
      const result = await deps.gateway.execute(request, req.principal, req.requestId);
      const failedBeforeExecution =
        !result.data &&
        result.errors?.some(
          e =>
            e.extensions?.http?.status === 400 ||
            /GRAPHQL_(PARSE|VALIDATION)_FAILED|QUERY_TOO/.test(e.extensions?.code ?? ''),
        );
      res.status(failedBeforeExecution ? 400 : 200).json(result);
    } catch (error) {
      deps.logger.error({ err: error, requestId: req.requestId }, 'graphql failed');
      res
        .status(500)
        .json({ errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
    }
  };
}

/** `/v1/organizations/{id}` → `/v1/organizations/:id`. */
function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

interface RoutePattern {
  /** The route's path, with or without its trailing slash, any value in each `{param}`. */
  regex: RegExp;
  method: string;
}

function routePatterns(routes: Route[]): RoutePattern[] {
  return routes.map(r => ({
    regex: new RegExp(`^${r.path.replace(/\/$/, '').replace(/\{\w+\}/g, '[^/]+')}/?$`),
    method: r.method.toUpperCase(),
  }));
}

function methodNotAllowed(patterns: RoutePattern[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    const allowed = patterns.filter(p => p.regex.test(req.path)).map(p => p.method);
    if (allowed.length && !allowed.includes(req.method)) {
      sendMethodNotAllowed(res, [...new Set(allowed)]);
      return;
    }
    next();
  };
}

function errorHandler(logger: Logger) {
  return (error: any, req: Request, res: Response, _next: NextFunction) => {
    // Any other body the parsers refuse before routing (unknown Content-Encoding or charset, a gzip
    // body that does not inflate, an aborted upload: http-errors with a 4xx status) is a body that
    // cannot be read as JSON, and gets the same answers.
    // Raised before the parsers were past, it is the body's; `req.route` cannot tell, as a router that
    // passed the request on (the explorer's GET /graphql, /<version>/openapi.json) has set it.
    const unreadableBody =
      !req.bodyRead &&
      error?.type !== 'entity.too.large' &&
      error?.expose === true &&
      error.status >= 400 &&
      error.status < 500;
    if (error?.type === 'entity.parse.failed' || unreadableBody) {
      if (req.path === '/graphql') {
        res
          .status(400)
          .json({ errors: [{ message: 'The request body is not valid JSON.', extensions: { code: 'BAD_REQUEST' } }] });
      } else {
        res.status(422).json({
          error: 'RequestValidationError',
          detail: [
            {
              type: 'json_invalid',
              loc: ['body', 0],
              msg: 'JSON decode error',
              input: {},
              ctx: { error: 'Expecting value' },
            },
          ],
        });
      }
      return;
    }
    if (error?.type === 'entity.too.large') {
      res.status(413).json({ detail: 'Request Entity Too Large' });
      return;
    }
    logger.error({ err: error, requestId: req.requestId }, 'unhandled error');
    sendError(res, error);
  };
}
