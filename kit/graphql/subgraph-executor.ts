import type { DocumentNode, GraphQLError } from 'graphql';
import type { Logger } from '../logger.js';
import type { Principal } from '../principal.js';
import { DocumentCache } from './document-cache.js';
import { toGraphQLError } from './format-error.js';
import type { SubgraphRuntime } from './subgraph-runtime.js';

/**
 * Executes subgraph fetches arriving over HTTP on a subgraph schema, each distinct document parsed
 * and validated once (DocumentCache, as gateway/local-data-source.ts does in-process). Nothing here
 * is identity-specific: the next subgraph's server can reuse it.
 */
export class SubgraphExecutor {
  private readonly documents: DocumentCache;

  constructor(
    runtime: SubgraphRuntime,
    private readonly logger: Logger,
  ) {
    this.documents = new DocumentCache(runtime);
  }

  async run(
    request: { query: string; operationName?: string; variables?: Record<string, unknown> },
    principal: Principal,
    requestId: string,
  ): Promise<{ data?: unknown; errors?: unknown[] }> {
    let document: DocumentNode | readonly GraphQLError[];
    try {
      document = this.documents.get(request.query);
    } catch (error) {
      return { errors: [toGraphQLError(error).toJSON()] }; // not cached: only the gateway gets here, and it sends valid documents
    }
    if (!('kind' in document)) return { errors: document.map(e => e.toJSON()) };
    const result = await this.documents.execute(document, request, principal, requestId);
    const errors = result.errors?.map(error => {
      const mapped = toGraphQLError(error);
      // Unexpected errors, and the 503s of a database wait that ran out, with their cause.
      const status = (mapped.extensions.http as { status?: number } | undefined)?.status ?? 500;
      if (mapped.extensions.code === 'INTERNAL_SERVER_ERROR' || status >= 500) {
        this.logger.error({ err: error.originalError ?? error, requestId, path: error.path }, 'resolver failed');
      }
      return { ...mapped.toJSON(), path: error.path, locations: error.locations };
    });
    return errors?.length ? { data: result.data, errors } : { data: result.data };
  }
}
