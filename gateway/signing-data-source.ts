import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { PRINCIPAL_HEADER, signPrincipal } from '../kit/principal.js';
import type { GatewayContext } from '../kit/graphql/subgraph-runtime.js';
import { traceHeaders } from '../kit/tracing/tracing.js';

/**
 * Distributed topology: calls a subgraph over HTTP with the caller's principal signed by the
 * internal key. The subgraph refuses any request without a valid signature, so it cannot be used
 * directly even by someone who can reach its port.
 */
export class SigningDataSource extends RemoteGraphQLDataSource<GatewayContext & Record<string, any>> {
  constructor(
    url: string,
    private readonly internalKey: string,
  ) {
    super({ url });
  }

  override willSendRequest({
    request,
    context,
  }: GraphQLDataSourceProcessOptions<GatewayContext & Record<string, any>>): void {
    if (!context?.principal) return;
    request.http?.headers.set(PRINCIPAL_HEADER, signPrincipal(context.principal, this.internalKey));
    request.http?.headers.set('x-request-id', context.requestId);
    for (const [name, value] of Object.entries(traceHeaders())) request.http?.headers.set(name, value);
  }
}
