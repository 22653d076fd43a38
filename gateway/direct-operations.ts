import { operationFromDocument, Supergraph } from '@apollo/federation-internals';
import { QueryPlanner } from '@apollo/query-planner';
import { type DocumentNode, type ExecutionResult, execute, type GraphQLSchema, parse, validate } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { toGraphQLError } from '../kit/graphql/format-error.js';
import { refusedInput } from '../kit/graphql/input-guards.js';
import type { SubgraphRuntime } from '../kit/graphql/subgraph-runtime.js';
import type { Principal } from '../kit/principal.js';
import { inSpan } from '../kit/tracing/tracing.js';

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
  /** The subgraph's span name, made once: a name made per call is a new string to hash per span. */
  spanName: string;
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
 * the gateway's own query planner is asked, once, on the operation's first use, how it would run it;
 * when the plan is one fetch from one in-process subgraph (no entity jumps, no `@requires`, no rewrites), running the
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
  /** The operations that may run directly, by source text, until each is first asked for. */
  private readonly candidates = new Map<string, string>();
  /** Each candidate's verdict once made: its entry, or null when it must go through the gateway. */
  private readonly verdicts = new Map<string, Entry | null>();
  private planning?: {
    apiSchema: ReturnType<Supergraph['apiSchema']>;
    apiGraphQLSchema: GraphQLSchema;
    planner: QueryPlanner;
  };

  constructor(
    private readonly supergraphSdl: string,
    private readonly runtimes: readonly SubgraphRuntime[],
    operations: Iterable<DirectOperationSource>,
  ) {
    for (const { source, operationName } of operations) this.candidates.set(source, operationName);
  }

  /** Names of the operations that run directly (for logs and tests); plans every candidate. */
  names(): string[] {
    return [...this.candidates.keys()].flatMap(source => this.entryFor(source)?.operationName ?? []);
  }

  /** Runs `source` directly when it is one of the single-subgraph operations; undefined otherwise. */
  execute(
    source: string,
    variables: Record<string, unknown> | undefined,
    principal: Principal,
    requestId: string,
  ): Promise<DirectResult> | undefined {
    const entry = this.entryFor(source);
    if (!entry) return undefined;
    // The subgraph's span, as the gateway's in-process data source makes one, with no gateway's span
    // above it: no gateway runs (docs/observability.md#traces).
    const subgraph = entry.runtime.name;
    const attributes = {
      'billing.subgraph': subgraph,
      'billing.gateway.path': 'direct',
      'graphql.operation.name': entry.operationName,
    };
    return inSpan(entry.spanName, attributes, () => this.run(entry, variables, principal, requestId));
  }

  /**
   * The operation's entry, planned on first use: asking the planner about all ~160 operations at start-up
   * took about a second per environment, most of a test stack's start and of `npm start`'s, while a process
   * runs a handful of them (docs/performance.md).
   */
  private entryFor(source: string): Entry | undefined {
    const known = this.verdicts.get(source);
    if (known !== undefined) return known ?? undefined;
    const operationName = this.candidates.get(source);
    if (operationName === undefined) return undefined;
    const entry = this.plan(source, operationName);
    this.verdicts.set(source, entry);
    return entry ?? undefined;
  }

  /** The entry when the gateway's plan is one plain fetch from one in-process subgraph; null otherwise. */
  private plan(source: string, operationName: string): Entry | null {
    if (!this.planning) {
      const supergraph = Supergraph.build(this.supergraphSdl);
      const apiSchema = supergraph.apiSchema();
      this.planning = {
        apiSchema,
        apiGraphQLSchema: apiSchema.toGraphQLJSSchema(),
        planner: new QueryPlanner(supergraph),
      };
    }
    const { apiSchema, apiGraphQLSchema, planner } = this.planning;
    // NOTE: without source locations, graphql-jit's code passes `[]` instead of a `[{line, column}]`
    // literal to every leaf it serialises, allocated per call: a 100-order page has some 19,000 leaves,
    // and it allocates about 13% less (6.2 -> 5.4 MB). The REST adapter never shows an error's
    // locations, and the errors of resolvers are rebuilt without them anyway (toGraphQLError).
    const document = parse(source, { noLocation: true });
    // Invalid against the public graph: leave it to the gateway, which reports it.
    if (validate(apiGraphQLSchema, document).length) return null;
    const plan = planner.buildQueryPlan(operationFromDocument(apiSchema, document, { operationName }));
    const node = plan.node;
    if (node?.kind !== 'Fetch' || node.requires?.length || node.hasDefers) return null;
    if (node.inputRewrites?.length || node.outputRewrites?.length || node.contextRewrites?.length) return null;
    const runtime = this.runtimes.find(r => r.name === node.serviceName);
    if (!runtime || validate(runtime.schema, document).length) return null;
    return { runtime, document, operationName, spanName: `subgraph ${runtime.name}` };
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
