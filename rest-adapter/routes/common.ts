import { z } from 'zod';
import { camelKeys, snakeKeys } from '../../kit/case.js';

/** Shared request pieces: Polar's page/limit rules and id parameters. */
export const pageQuery = {
  page: z.coerce.number().int().gt(0).default(1),
  // Values above 100 are clamped by the service, not rejected (polar-api.md §2).
  limit: z.coerce.number().int().gt(0).default(10),
};

export const idParams = z.object({ id: z.uuid() });

/** A sorting parameter restricted to the resource's keys, optionally prefixed with `-`. */
export function sortingQuery(keys: readonly string[], defaults: string[]) {
  const allowed = keys.flatMap(k => [k, `-${k}`]) as [string, ...string[]];
  return z.array(z.enum(allowed)).default(defaults);
}

export const paginationSchema = z.object({ total_count: z.number().int(), max_page: z.number().int() });

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), pagination: paginationSchema });
}

/** GraphQL (camelCase) → wire (snake_case). */
export const toWire = <T = any>(value: unknown): T => snakeKeys<T>(value);
/** Wire (snake_case) → GraphQL input (camelCase). */
export const toInput = <T = any>(value: unknown): T => camelKeys<T>(value);
