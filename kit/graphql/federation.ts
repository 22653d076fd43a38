import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { type GraphQLSchema, parse } from 'graphql';
import { type BuildSchemaOptions, buildSchema, createResolversMap } from 'type-graphql';

/** The Federation 2 features every subgraph may use, declared in one place. */
export const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires", "@provides"])';

/** `__resolveReference` per entity type name. They must batch (see each `*.reference.ts`). */
export type ReferenceResolvers = Record<string, { __resolveReference: (reference: any, context: any) => unknown }>;

/**
 * Builds a Federation 2 subgraph from type-graphql resolvers: type-graphql emits the SDL with its
 * `@key` directives, `@apollo/subgraph` adds `_entities`/`_service`, and reference resolvers are
 * attached last (type-graphql has no notion of them).
 */
export async function buildFederatedSchema(
  options: Omit<BuildSchemaOptions, 'skipCheck'>,
  referenceResolvers: ReferenceResolvers = {},
): Promise<GraphQLSchema> {
  const schema = await buildSchema({ ...options, skipCheck: true, validate: false });
  const typeDefs = parse(`${FEDERATION_LINK}\n${printSchemaWithDirectives(schema)}`);
  const resolvers = createResolversMap(schema) as GraphQLResolverMap<unknown>;
  // `@apollo/subgraph` picks `__resolveReference` up only from the resolver map it builds from.
  for (const [typeName, reference] of Object.entries(referenceResolvers)) {
    resolvers[typeName] = { ...(resolvers[typeName] as object), ...reference } as GraphQLResolverMap<unknown>[string];
  }
  return buildSubgraphSchema({ typeDefs, resolvers });
}

/**
 * A subgraph's schema, built on the first call and shared by every later one in the process: both
 * environments of `npm start` (and of each test stack) run the same schema, which holds no I/O and no
 * per-environment state (each request's context brings the database and the clock), and building it
 * is the costliest step of starting a subgraph (docs/performance.md#the-test-suites-budget). A build
 * that failed is not kept.
 */
export function builtOnce(build: () => Promise<GraphQLSchema>): () => Promise<GraphQLSchema> {
  let built: Promise<GraphQLSchema> | undefined;
  return () => {
    built ??= build().catch(error => {
      built = undefined;
      throw error;
    });
    return built;
  };
}
