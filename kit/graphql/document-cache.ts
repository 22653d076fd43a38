import { type DocumentNode, execute, type ExecutionResult, type GraphQLError, parse, validate } from 'graphql';
import type { Principal } from '../principal.js';
import { refusedInput } from './input-guards.js';
import type { SubgraphRuntime } from './subgraph-runtime.js';

const MAX_CACHED_DOCUMENTS = 1000;

/**
 * Parses and validates each distinct subgraph document once: the gateway sends the same few fetch
 * strings again and again, and re-parsing them was most of the per-request cost (see
 * docs/performance.md). Shared by the in-process data source (gateway/local-data-source.ts) and a
 * subgraph's own HTTP server (kit/graphql/subgraph-executor.ts).
 */
export class DocumentCache {
  private readonly documents = new Map<string, DocumentNode | readonly GraphQLError[]>();

  constructor(private readonly runtime: SubgraphRuntime) {}

  /** The document, or its validation errors (both cached). A syntax error throws and is not cached. */
  get(source: string): DocumentNode | readonly GraphQLError[] {
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

  /** Executes a valid document from `get` with the runtime's per-request context. */
  execute(
    document: DocumentNode,
    request: OperationRequest,
    principal: Principal,
    requestId: string,
  ): Promise<ExecutionResult> {
    return executeOnSubgraph(this.runtime, document, request, principal, requestId);
  }
}

export interface OperationRequest {
  operationName?: string;
  variables?: Record<string, unknown>;
}

/**
 * Executes a parsed, validated `document` on a subgraph's schema with its per-request context; a NUL
 * in its string input or an id that is not a UUID is refused first (kit/graphql/input-guards.ts).
 */
export async function executeOnSubgraph(
  runtime: SubgraphRuntime,
  document: DocumentNode,
  request: OperationRequest,
  principal: Principal,
  requestId: string,
): Promise<ExecutionResult> {
  const refused = refusedInput(runtime.schema, document, request.variables);
  if (refused) return { errors: [refused] };
  return execute({
    schema: runtime.schema,
    document,
    variableValues: request.variables,
    operationName: request.operationName,
    contextValue: runtime.createContext(principal, requestId),
  });
}
