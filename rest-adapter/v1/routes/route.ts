import type { z } from 'zod';
import type { AccessRule } from '../../../kit/graphql/authorize.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface RouteInput {
  params: Record<string, any>;
  query: Record<string, any>;
  body: any;
}

/**
 * One documented REST operation: how to validate it, which named GraphQL operation serves it, and how
 * the GraphQL result becomes the wire body. No business logic lives here; the OpenAPI document is
 * generated from these same objects.
 */
export interface Route {
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
  /** Name of the operation in schema/operations/*.graphql. */
  operation: string;
  variables(input: RouteInput): Record<string, unknown>;
  /** Maps `data` of the GraphQL result to the response body (undefined for empty bodies). */
  result(data: any): unknown;
  status: number;
  /** Success response schema, for the OpenAPI document. */
  response?: z.ZodType;
  /** Documented error statuses besides 401/422. */
  errors?: number[];
  /** Response content type when not JSON. */
  contentType?: string;
}
