import { z } from 'zod';
import { camelKeys, snakeKeys } from '../../../kit/case.js';
import { GRAPHQL_INT_MAX, MAX_PAGE, MAX_PAGE_SIZE } from '../../../kit/graphql/page-limits.js';
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

/**
 * Whether an ISO date or date-time names a real day of the years 1-9999. zod's pattern accepts
 * 2023-02-30 and year 0000, which PostgreSQL refuses (a 500 if they got that far); pydantic does not.
 * Offsets beyond ±15:59 are not a concern here: the value reaches the database as an instant.
 */
export function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  if (!(year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate()))
    return false;
  // Its offset must not carry the instant out of those years either (9999-12-31T23:00-05:00).
  const instant = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  const utcYear = instant.getUTCFullYear();
  return !Number.isNaN(instant.getTime()) && utcYear >= 1 && utcYear <= 9999;
}

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
