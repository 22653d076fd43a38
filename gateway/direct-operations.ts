import { operationFromDocument, Supergraph } from '@apollo/federation-internals';
import { QueryPlanner } from '@apollo/query-planner';
import { type DocumentNode, parse, validate } from 'graphql';
import { executeOnSubgraph } from '../kit/graphql/document-cache.js';
import { toGraphQLError } from '../kit/graphql/format-error.js';
import type { SubgraphRuntime } from '../kit/graphql/subgraph-runtime.js';
import type { Principal } from '../kit/principal.js';

export interface DirectOperationSource {
  /** The exact source text the caller will send (the lookup key). */
  source: string;
  operationName: string;
}

export interface DirectResult {
  data?: Record<string, unknown> | null;
  errors?: ReturnType<ReturnType<typeof toGraphQLError>['toJSON']>[];
}

interface Entry {
  runtime: SubgraphRuntime;
  document: DocumentNode;
  operationName: string;
}

/**
 * The embedded topology's shortcut for the REST adapter's fixed operations. For each named operation
 * the gateway's own query planner is asked, once at start-up, how it would run it; when the plan is
 * one fetch from one in-process subgraph (no entity jumps, no `@requires`, no rewrites), running the
 * operation through Apollo Server and the gateway only re-parses it into the planner's model,
 * forwards it and re-shapes the result, which together cost more than the subgraph execution itself
 * (docs/architecture.md, "Where the time goes"). Those operations are executed on the subgraph's
 * schema directly, with the document parsed and validated once; errors go through the same
 * `toGraphQLError` as the gateway's in-process data source, so callers see the same codes and
 * statuses. Operations that span subgraphs, and every client-supplied `/graphql` request, still go
 * through the gateway.
 */
export class DirectOperations {
  private readonly entries = new Map<string, Entry>();

  constructor(
    supergraphSdl: string,
    runtimes: readonly SubgraphRuntime[],
    operations: Iterable<DirectOperationSource>,
  ) {
    const supergraph = Supergraph.build(supergraphSdl);
    const apiSchema = supergraph.apiSchema();
    const apiGraphQLSchema = apiSchema.toGraphQLJSSchema();
    const planner = new QueryPlanner(supergraph);
    for (const { source, operationName } of operations) {
      const document = parse(source);
      // Invalid against the public graph: leave it to the gateway, which reports it.
      if (validate(apiGraphQLSchema, document).length) continue;
      const plan = planner.buildQueryPlan(operationFromDocument(apiSchema, document, { operationName }));
      const node = plan.node;
      if (node?.kind !== 'Fetch' || node.requires?.length || node.hasDefers) continue;
      if (node.inputRewrites?.length || node.outputRewrites?.length || node.contextRewrites?.length) continue;
      const runtime = runtimes.find(r => r.name === node.serviceName);
      if (!runtime || validate(runtime.schema, document).length) continue;
      this.entries.set(source, { runtime, document, operationName });
    }
  }

  /** Names of the operations that run directly (for logs and tests). */
  names(): string[] {
    return [...this.entries.values()].map(e => e.operationName);
  }

  /** Runs `source` directly when it is one of the single-subgraph operations; undefined otherwise. */
  execute(
    source: string,
    variables: Record<string, unknown> | undefined,
    principal: Principal,
    requestId: string,
  ): Promise<DirectResult> | undefined {
    const entry = this.entries.get(source);
    if (!entry) return undefined;
    return this.run(entry, variables, principal, requestId);
  }

  private async run(
    entry: Entry,
    variables: Record<string, unknown> | undefined,
    principal: Principal,
    requestId: string,
  ): Promise<DirectResult> {
    const result = await executeOnSubgraph(
      entry.runtime,
      entry.document,
      { operationName: entry.operationName, variables },
      principal,
      requestId,
    );
    return {
      data: result.data as Record<string, unknown> | null | undefined,
      ...(result.errors?.length ? { errors: result.errors.map(e => toGraphQLError(e).toJSON()) } : {}),
    };
  }
}
