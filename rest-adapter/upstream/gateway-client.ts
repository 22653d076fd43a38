import type { ApolloServer } from '@apollo/server';
import type { DirectOperations } from '../../gateway/direct-operations.js';
import { PRINCIPAL_HEADER, signPrincipal, type Principal } from '../../kit/principal.js';
import type { GatewayContext } from '../../kit/graphql/subgraph-runtime.js';
import type { GraphQLRequest } from '../../kit/http/graphql-http.js';
import { inSpan, traceHeaders } from '../../kit/tracing/tracing.js';

/** A GraphQL error as it comes back from the gateway. */
export interface GraphQLErrorLike {
  message: string;
  extensions?: { code?: string; http?: { status?: number }; details?: unknown };
}

export interface GraphQLResult {
  data?: Record<string, any> | null;
  errors?: readonly GraphQLErrorLike[];
}

/** How the adapter reaches the gateway: in the same process, or over HTTP with a signed principal. */
export interface GatewayClient {
  execute(request: GraphQLRequest, principal: Principal, requestId: string): Promise<GraphQLResult>;
}

/**
 * Embedded topology: runs the operation on the gateway's Apollo Server directly, no HTTP. With
 * `direct`, the adapter's fixed operations that the gateway would answer with one fetch from one
 * in-process subgraph run on that subgraph straight away (gateway/direct-operations.ts).
 */
export class InProcessGatewayClient implements GatewayClient {
  constructor(
    private readonly server: ApolloServer<GatewayContext>,
    private readonly direct?: DirectOperations,
  ) {}

  /**
   * In a trace (docs/observability.md#traces), the gateway's span around a planned operation
   * (`billing.gateway.path: planned`). A direct one runs no gateway: its subgraph's span
   * (gateway/direct-operations.ts) is the hop under the request's, marked `billing.gateway.path: direct`.
   */
  execute(request: GraphQLRequest, principal: Principal, requestId: string): Promise<GraphQLResult> {
    const direct = this.direct?.execute(request.query, request.variables, principal, requestId);
    if (direct) return direct as Promise<GraphQLResult>;
    const attributes = { 'graphql.operation.name': request.operationName ?? '', 'billing.gateway.path': 'planned' };
    return inSpan('gateway', attributes, () => this.planned(request, principal, requestId));
  }

  private async planned(request: GraphQLRequest, principal: Principal, requestId: string): Promise<GraphQLResult> {
    const response = await this.server.executeOperation(request, { contextValue: { principal, requestId } });
    if (response.body.kind !== 'single') throw new Error('Incremental delivery is not supported');
    return response.body.singleResult as GraphQLResult;
  }
}

/** Distributed topology: POSTs to the gateway process, identity signed with the internal key. */
export class HttpGatewayClient implements GatewayClient {
  constructor(
    private readonly url: string,
    private readonly internalKey: string,
  ) {}

  async execute(request: GraphQLRequest, principal: Principal, requestId: string): Promise<GraphQLResult> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'apollo-require-preflight': 'true',
        ...traceHeaders(),
        'x-request-id': requestId,
        [PRINCIPAL_HEADER]: signPrincipal(principal, this.internalKey),
      },
      body: JSON.stringify(request),
    });
    return (await response.json()) as GraphQLResult;
  }
}
