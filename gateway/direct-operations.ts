import { operationFromDocument, Supergraph } from '@apollo/federation-internals';
import { QueryPlanner } from '@apollo/query-planner';
import { type DocumentNode, type ExecutionResult, execute, parse, validate } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { toGraphQLError } from '../kit/graphql/format-error.js';
import { refusedInput } from '../kit/graphql/input-guards.js';
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
  /** Compiled on first use: most processes run a handful of the ~160 operations, and each compiled one
   * keeps its generated source and code in memory (about 60 KB). */
  run?: RunCompiled;
}

type RunCompiled = (
  context: unknown,
  variables: Record<string, unknown> | undefined,
) => Promise<ExecutionResult> | ExecutionResult;

/**
 * The embedded topology's shortcut for the REST adapter's fixed operations. For each named operation
 * the gateway's own query planner is asked, once at start-up, how it would run it; when the plan is
 * one fetch from one in-process subgraph (no entity jumps, no `@requires`, no rewrites), running the
 * operation through Apollo Server and the gateway only re-parses it into the planner's model,
 * forwards it and re-shapes the result, which together cost more than the subgraph execution itself
 * (docs/performance.md). Those operations are executed on the subgraph's
 * schema directly, with the document parsed and validated once; errors go through the same
 * `toGraphQLError` as the gateway's in-process data source, so callers see the same codes and
 * statuses. Operations that span subgraphs, and every client-supplied `/graphql` request, still go
 * through the gateway.
 *
 * These documents are ours and fixed, so each is also compiled once with graphql-jit: graphql-js
 * walks the document and the schema again for every field of every row (an organization is some 80
 * leaves), which was the largest single cost of a REST read after the socket write; the compiled
 * function does the same coercion, resolution, null checks and leaf serialisation in straight-line code.
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
      // NOTE: without source locations, graphql-jit's code passes `[]` instead of a `[{line, column}]`
      // literal to every leaf it serialises, allocated per call: a 100-order page has some 19,000 leaves,
      // and it allocates about 13% less (6.2 -> 5.4 MB). The REST adapter never shows an error's
      // locations, and the errors of resolvers are rebuilt without them anyway (toGraphQLError).
      const document = parse(source, { noLocation: true });
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
    const refused = refusedInput(entry.runtime.schema, entry.document, variables);
    if (refused) return { errors: [toGraphQLError(refused).toJSON()] };
    entry.run ??= compile(entry);
    const result = await entry.run(entry.runtime.createContext(principal, requestId), variables);
    return {
      data: result.data as Record<string, unknown> | null | undefined,
      ...(result.errors?.length ? { errors: result.errors.map(e => toGraphQLError(e).toJSON()) } : {}),
    };
  }
}

/** The compiled operation; graphql-js's `execute` for a document graphql-jit cannot compile (none today). */
function compile(entry: Entry): RunCompiled {
  const compiled = compileQuery(entry.runtime.schema, entry.document, entry.operationName);
  if (isCompiledQuery(compiled)) return (context, variables) => compiled.query(undefined, context, variables);
  return (context, variables) =>
    execute({
      schema: entry.runtime.schema,
      document: entry.document,
      operationName: entry.operationName,
      variableValues: variables,
      contextValue: context,
    });
}
