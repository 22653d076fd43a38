import type { z } from 'zod';
import type { AccessRule } from '../../../kit/graphql/authorize.js';
import type { OperationName, OperationResults } from '../operation-results/index.generated.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface RouteInput {
  params: Record<string, any>;
  query: Record<string, any>;
  body: any;
}

/** What every route declares besides its operation and the shaping of that operation's result. */
interface RouteFields {
  /** Polar's operation id, e.g. `organizations:list`. */
  operationId: string;
  method: HttpMethod;
  /** OpenAPI-style path, e.g. `/v1/organizations/{id}`. */
  path: string;
  summary: string;
  /** Longer prose for the OpenAPI document, before the callers and scopes line. */
  description?: string;
  tag: string;
  /** Served by the sandbox only: production's route table leaves it out (an unknown path there, 404). */
  sandboxOnly?: boolean;
  access: AccessRule;
  params?: z.ZodObject<any>;
  query?: z.ZodObject<any>;
  body?: z.ZodType;
  /** Whether the body may be omitted entirely. */
  bodyOptional?: boolean;
  /**
   * Set when the subgraph reads the body's shape itself, with the same 422 items `body` would give: the edge then
   * only checks that it is JSON within the limits (depth, NUL) and sends it on as one value, and `body` documents
   * it. For a batch, where checking every item twice was a large part of the request (docs/usage-events.md#ingest).
   */
  bodyShapeCheckedBySubgraph?: boolean;
  variables(input: RouteInput): Record<string, unknown>;
  status: number;
  /** Success response schema, for the OpenAPI document. */
  response?: z.ZodType;
  /** Documented error statuses besides 401/422. */
  errors?: number[];
  /** Response content type when not JSON. */
  contentType?: string;
  /** Served as a download under this file name (`Content-Disposition: attachment`). */
  attachment?: string;
}

/** A route that runs the operation `Op`: `result` gets that operation's `data`, typed as generated. */
interface RouteOf<Op extends OperationName> extends RouteFields {
  /** Name of the operation in schema/operations/*.graphql. */
  operation: Op;
  /** Maps `data` of the GraphQL result to the response body (undefined for empty bodies). */
  result(data: OperationResults[Op]): unknown;
}

/**
 * One documented REST operation: how to validate it, which named GraphQL operation serves it, and how
 * the GraphQL result becomes the wire body. No business logic lives here; the OpenAPI document is
 * generated from these same objects. One member per operation, so a route table's object literal gets
 * the result type of the operation it names (rest-adapter/v1/operation-results/*.generated.ts).
 */
export type Route = { [Op in OperationName]: RouteOf<Op> }[OperationName];

/**
 * The wire body of `route` from the `data` the gateway answered for its operation. The gateway's JSON
 * is the operation's result by the schema's promise (the operation was validated against it), which is
 * the one place that promise is taken on trust.
 */
export function shapeResult(route: Route, data: unknown): unknown {
  return (route.result as (data: unknown) => unknown)(data);
}
