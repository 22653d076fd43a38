/**
 * Integer, page and limit bounds shared by the REST edge (rest-adapter/v1/routes/common.ts) and the subgraphs'
 * list resolvers. No imports: the REST adapter reads it without loading type-graphql.
 */

/** Polar clamps `limit` to this instead of rejecting larger values (docs/polar/lists.md). */
export const MAX_PAGE_SIZE = 100;

/** The largest GraphQL `Int` (a signed 32-bit integer): larger values fail variable coercion. */
export const GRAPHQL_INT_MAX = 2 ** 31 - 1;

/**
 * The largest page number: pages travel as GraphQL `Int`, and a page that far is empty for any real
 * list. Polar has no upper bound (Python ints); beyond this the REST edge answers 422.
 */
export const MAX_PAGE = GRAPHQL_INT_MAX;
