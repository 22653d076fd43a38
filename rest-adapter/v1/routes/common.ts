import { z } from 'zod';
import { camelKeys, snakeKeys } from '../../../kit/case.js';
import { GRAPHQL_INT_MAX, MAX_PAGE, MAX_PAGE_SIZE } from '../../../kit/graphql/page-limits.js';
import { isRealDate } from '../../../kit/real-date.js';
import { pydanticIssue } from '../validation.js';

/**
 * A query integer the way pydantic reads one: decimal digits with an optional sign and surrounding
 * spaces. `1e10`, `0x10`, `1.5`, `NaN`, `Infinity` and repeated or nested keys are `int_parsing` /
 * `int_type`, not numbers JavaScript happens to accept.
 */
export const queryInteger = z.unknown().transform((value, ctx): number => {
  if (typeof value !== 'string') {
    pydanticIssue(ctx, value, 'int_type', 'Input should be a valid integer');
    return z.NEVER;
  }
  if (!/^\s*[+-]?\d+\s*$/.test(value)) {
    pydanticIssue(ctx, value, 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer');
    return z.NEVER;
  }
  return Number(value);
});

/** At least `min`, at most `max` (each a pydantic `greater_than_equal` / `less_than_equal` item). */
function boundedInteger(gt: number, max?: number) {
  return queryInteger.transform((n, ctx) => {
    if (!(n > gt)) {
      pydanticIssue(ctx, n, 'greater_than', `Input should be greater than ${gt}`, { gt });
      return z.NEVER;
    }
    if (max !== undefined && n > max) {
      pydanticIssue(ctx, n, 'less_than_equal', `Input should be less than or equal to ${max}`, { le: max });
      return z.NEVER;
    }
    return n;
  });
}

/**
 * Polar's page/limit rules (docs/polar/lists.md), the one definition every list uses: `page` > 0 (and at
 * most MAX_PAGE), `limit` > 0, values above 100 silently clamped to 100 as Polar does. (zod leaves
 * `default` out of the JSON schema of a transformed value, so the descriptions say it.)
 */
export const pageQuery = {
  page: boundedInteger(0, MAX_PAGE)
    .default(1)
    .meta({ type: 'integer', exclusiveMinimum: 0, maximum: MAX_PAGE, description: 'Page number, default 1.' }),
  limit: boundedInteger(0)
    .transform(n => Math.min(n, MAX_PAGE_SIZE))
    .default(10)
    .meta({
      type: 'integer',
      exclusiveMinimum: 0,
      description: `Size of a page, default 10; values above ${MAX_PAGE_SIZE} are clamped to it.`,
    }),
};

export const idParams = z.object({ id: z.uuid() });

export { isRealDate };

/**
 * A checked date-time string as one canonical instant (`2026-01-01T05:00:00.000Z`): the subgraphs'
 * `DateTimeISO` scalar refuses forms zod accepts (no seconds, `+0500`), which made them 500s.
 */
export function toInstant(value: string, ctx: z.RefinementCtx): string {
  if (!isRealDate(value)) {
    pydanticIssue(
      ctx,
      value,
      'datetime_parsing',
      'Input should be a valid datetime, day value is outside expected range',
    );
    return z.NEVER;
  }
  return new Date(value).toISOString();
}

/** A request date-time: ISO 8601 with an offset, on a real day, sent on as a canonical instant. */
export const requestDateTime = z.iso.datetime({ offset: true }).transform(toInstant);

/**
 * A body integer that travels as GraphQL `Int` (seats, counts, limits): JSON allows any size, but a
 * value beyond 32 bits would fail in the gateway, so it is a 422 `less_than_equal` here.
 */
export const graphqlInt = () =>
  z
    .number()
    .int()
    .gte(-GRAPHQL_INT_MAX - 1)
    .lte(GRAPHQL_INT_MAX);

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
