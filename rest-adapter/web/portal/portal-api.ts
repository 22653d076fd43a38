import { DomainError } from '../../../kit/errors.js';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { Principal } from '../../../kit/principal.js';
import type { GatewayClient } from '../../upstream/gateway-client.js';
import type { OperationDocuments } from '../../v1/operations.js';
import { type Route, shapeResult } from '../../v1/routes/route.js';
import { parseOrThrow, queryObject } from '../../v1/validation.js';
import type { GraphQLErrorLike } from '../../v1/wire-errors.js';

export interface PortalCall {
  params?: Record<string, string>;
  query?: Record<string, string | string[]>;
  body?: unknown;
}

/**
 * The portal pages call the documented API, nothing else: `call('customer_portal:subscriptions:update',
 * …)` runs that route's own object (access rule, zod schemas, named operation, wire mapping) as the
 * customer, in-process through the same gateway client the route table uses. A page therefore sees
 * exactly what an API client sees (Polar's wire bodies), every rule the API enforces holds for the pages
 * too, and a view that needs an endpoint another part adds later asks `has(operationId)` and appears once
 * that route is in the table. Failures are thrown as DomainErrors with the API's class and status.
 */
export class PortalApi {
  private readonly byId: Map<string, Route>;

  constructor(
    routes: Route[],
    private readonly gateway: GatewayClient,
    private readonly operations: OperationDocuments,
  ) {
    this.byId = new Map(routes.map(route => [route.operationId, route]));
  }

  /** Whether this server serves the operation (views of endpoints that arrive later check this). */
  has(operationId: string): boolean {
    return this.byId.has(operationId);
  }

  /** The first served operation whose path matches (for endpoints whose Polar name is not settled yet). */
  findByPath(method: Route['method'], path: RegExp): string | null {
    for (const route of this.byId.values())
      if (route.method === method && path.test(route.path)) return route.operationId;
    return null;
  }

  /** Whether the operation's body schema accepts `body` (an endpoint that grows new alternatives later). */
  accepts(operationId: string, body: unknown): boolean {
    const schema = this.byId.get(operationId)?.body;
    return !!schema && schema.safeParse(body).success;
  }

  async call<T = any>(operationId: string, input: PortalCall, principal: Principal, requestId: string): Promise<T> {
    const route = this.byId.get(operationId);
    if (!route) throw new Error(`the portal pages call ${operationId}, which this server does not serve`);
    authorize(principal, route.access);
    const params = route.params ? parseOrThrow(route.params, 'path', input.params ?? {}) : {};
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(input.query ?? {}))
      for (const one of Array.isArray(value) ? value : [value]) search.append(key, one);
    const query = route.query ? parseOrThrow(route.query, 'query', queryObject(search, route.query)) : {};
    const body = route.body ? parseOrThrow(route.body, 'body', input.body ?? {}) : undefined;
    const result = await this.gateway.execute(
      {
        query: this.operations.source(route.operation),
        operationName: route.operation,
        variables: route.variables({ params, query, body }),
      },
      principal,
      requestId,
    );
    if (result.errors?.length || !result.data) throw domainErrorOf(result.errors?.[0] as GraphQLErrorLike | undefined);
    return shapeResult(route, result.data) as T;
  }
}

function domainErrorOf(error: GraphQLErrorLike | undefined): Error {
  const status = error?.extensions?.http?.status;
  const code = error?.extensions?.code;
  if (error && typeof status === 'number' && status < 500 && typeof code === 'string')
    return new DomainError(code, error.message, status, error.extensions?.details);
  return new Error(error?.message ?? 'the operation answered no data');
}
