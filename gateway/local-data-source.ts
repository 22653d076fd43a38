import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { type DocumentNode, execute, type GraphQLError, parse, validate } from 'graphql';
import { toGraphQLError } from '../kit/graphql/format-error.js';
import type { GatewayContext, SubgraphRuntime } from '../kit/graphql/subgraph-runtime.js';

const MAX_CACHED_DOCUMENTS = 1000;

/**
 * Runs a subgraph fetch in-process. Unlike Apollo's LocalGraphQLDataSource it parses and validates
 * each distinct subgraph document once: the gateway sends the same few fetch strings again and again,
 * and re-parsing them was most of the per-request cost (see docs/architecture.md).
 */
export class CachedLocalDataSource implements GraphQLDataSource<GatewayContext & Record<string, any>> {
  private readonly documents = new Map<string, DocumentNode | readonly GraphQLError[]>();

  constructor(private readonly runtime: SubgraphRuntime) {}

  async process({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext & Record<string, any>>): Promise<GatewayGraphQLResponse> {
    const source = request.query!;
    const document = this.documentFor(source);
    if (!('kind' in document)) return { errors: document.map(e => e.toJSON()) };
    const principal = context?.principal;
    const requestId = context?.requestId ?? 'internal';
    if (!principal) return { errors: [toGraphQLError(new Error('missing principal')).toJSON()] };
    const result = await execute({
      schema: this.runtime.schema,
      document,
      variableValues: request.variables,
      operationName: request.operationName,
      contextValue: this.runtime.createContext(principal, requestId),
    });
    return {
      data: result.data as Record<string, unknown> | null | undefined,
      errors: result.errors?.map(e => toGraphQLError(e).toJSON()),
    };
  }

  private documentFor(source: string): DocumentNode | readonly GraphQLError[] {
    let cached = this.documents.get(source);
    if (!cached) {
      const document = parse(source);
      const errors = validate(this.runtime.schema, document);
      cached = errors.length ? errors : document;
      if (this.documents.size >= MAX_CACHED_DOCUMENTS) this.documents.clear();
      this.documents.set(source, cached);
    }
    return cached;
  }
}
