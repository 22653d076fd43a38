import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { DocumentCache } from '../kit/graphql/document-cache.js';
import { toGraphQLError } from '../kit/graphql/format-error.js';
import type { GatewayContext, SubgraphRuntime } from '../kit/graphql/subgraph-runtime.js';
import { inSpan } from '../kit/tracing/tracing.js';

/**
 * Runs a subgraph fetch in-process. Unlike Apollo's LocalGraphQLDataSource it parses and validates
 * each distinct subgraph document once: the gateway sends the same few fetch strings again and again,
 * and re-parsing them was most of the per-request cost (see docs/performance.md).
 */
export class CachedLocalDataSource implements GraphQLDataSource<GatewayContext & Record<string, any>> {
  private readonly documents: DocumentCache;
  private readonly name: string;
  /** Its span's name, made once (a name made per call is a new string to hash per span). */
  private readonly spanName: string;

  constructor(runtime: SubgraphRuntime) {
    this.documents = new DocumentCache(runtime);
    this.name = runtime.name;
    this.spanName = `subgraph ${runtime.name}`;
  }

  async process({
    request,
    context,
  }: GraphQLDataSourceProcessOptions<GatewayContext & Record<string, any>>): Promise<GatewayGraphQLResponse> {
    const document = this.documents.get(request.query!);
    if (!('kind' in document)) return { errors: document.map(e => e.toJSON()) };
    const principal = context?.principal;
    const requestId = context?.requestId ?? 'internal';
    if (!principal) return { errors: [toGraphQLError(new Error('missing principal')).toJSON()] };
    // The subgraph's span in a trace (docs/observability.md#traces): its statements' spans go under it.
    const result = await inSpan(this.spanName, { 'billing.subgraph': this.name }, () =>
      this.documents.execute(document, request, principal, requestId),
    );
    return {
      data: result.data as Record<string, unknown> | null | undefined,
      errors: result.errors?.map(e => toGraphQLError(e).toJSON()),
    };
  }
}
