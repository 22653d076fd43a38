import { z } from 'zod';
import { RequestValidationError, type ValidationIssue } from '../kit/errors.js';

type Location = 'body' | 'query' | 'path';

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: any = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = current[key as any];
  }
  return current;
}

/** Zod's issues in pydantic's words (`type`, `loc`, `msg`, `input`), which Polar's clients parse. */
export function toValidationIssues(location: Location, error: z.ZodError, input: unknown): ValidationIssue[] {
  return error.issues.map(issue => {
    const path = issue.path.map(p => (typeof p === 'symbol' ? String(p) : p)) as (string | number)[];
    const loc: (string | number)[] = [location, ...path];
    const value = valueAt(input, issue.path as PropertyKey[]);
    switch (issue.code) {
      case 'invalid_type':
        if (value === undefined)
          return {
            type: 'missing',
            loc,
            msg: 'Field required',
            input: valueAt(input, issue.path.slice(0, -1) as PropertyKey[]) ?? null,
          };
        return { type: `${issue.expected}_type`, loc, msg: `Input should be a valid ${issue.expected}`, input: value };
      case 'too_small':
        if (issue.origin === 'string')
          return {
            type: 'string_too_short',
            loc,
            msg: `String should have at least ${issue.minimum} character${Number(issue.minimum) === 1 ? '' : 's'}`,
            input: value,
            ctx: { min_length: Number(issue.minimum) },
          };
        if (issue.origin === 'array')
          return {
            type: 'too_short',
            loc,
            msg: `List should have at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}`,
            input: value,
            ctx: { min_length: Number(issue.minimum) },
          };
        return issue.inclusive
          ? {
              type: 'greater_than_equal',
              loc,
              msg: `Input should be greater than or equal to ${issue.minimum}`,
              input: value,
              ctx: { ge: Number(issue.minimum) },
            }
          : {
              type: 'greater_than',
              loc,
              msg: `Input should be greater than ${issue.minimum}`,
              input: value,
              ctx: { gt: Number(issue.minimum) },
            };
      case 'too_big':
        if (issue.origin === 'string')
          return {
            type: 'string_too_long',
            loc,
            msg: `String should have at most ${issue.maximum} characters`,
            input: value,
            ctx: { max_length: Number(issue.maximum) },
          };
        if (issue.origin === 'array')
          return {
            type: 'too_long',
            loc,
            msg: `List should have at most ${issue.maximum} items`,
            input: value,
            ctx: { max_length: Number(issue.maximum) },
          };
        return {
          type: 'less_than_equal',
          loc,
          msg: `Input should be less than or equal to ${issue.maximum}`,
          input: value,
          ctx: { le: Number(issue.maximum) },
        };
      case 'invalid_format':
        if (issue.format === 'uuid')
          return { type: 'uuid_parsing', loc, msg: 'Input should be a valid UUID', input: value };
        if (issue.format === 'email')
          return { type: 'value_error', loc, msg: 'value is not a valid email address', input: value };
        if (issue.format === 'url')
          return { type: 'url_parsing', loc, msg: 'Input should be a valid URL', input: value };
        if (issue.format === 'datetime')
          return { type: 'datetime_from_date_parsing', loc, msg: 'Input should be a valid datetime', input: value };
        return { type: 'string_pattern_mismatch', loc, msg: issue.message, input: value };
      case 'invalid_value':
        return {
          type: issue.values.length === 1 ? 'literal_error' : 'enum',
          loc,
          msg: `Input should be ${issue.values
            .map(v => `'${String(v)}'`)
            .join(', ')
            .replace(/, ([^,]*)$/, ' or $1')}`,
          input: value,
          ctx: { expected: issue.values.map(v => `'${String(v)}'`).join(', ') },
        };
      case 'unrecognized_keys':
        return {
          type: 'extra_forbidden',
          loc: [...loc, issue.keys[0]],
          msg: 'Extra inputs are not permitted',
          input: valueAt(value, [issue.keys[0]]),
        };
      default:
        return { type: 'value_error', loc, msg: issue.message, input: value };
    }
  });
}

export function parseOrThrow<T extends z.ZodType>(schema: T, location: Location, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new RequestValidationError(toValidationIssues(location, parsed.error, input));
  return parsed.data;
}

/**
 * Query strings arrive as repeated keys (`?status=a&status=b`) and deep objects
 * (`metadata[key]=v`). Array-typed fields get every value, scalars the last one, deep objects a map.
 */
export function queryObject(search: URLSearchParams, schema: z.ZodObject<any> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const shape = schema?.shape ?? {};
  for (const [rawKey, value] of search) {
    const deep = /^([^[\]]+)\[([^[\]]*)\]$/.exec(rawKey);
    if (deep) {
      const [, key, sub] = deep;
      const map = (out[key] ??= {}) as Record<string, string[]>;
      (map[sub] ??= []).push(value);
      continue;
    }
    if (isArrayField(shape[rawKey])) ((out[rawKey] ??= []) as string[]).push(value);
    else out[rawKey] = value;
  }
  return out;
}

function isArrayField(schema: z.ZodType | undefined): boolean {
  let current: any = schema;
  while (current) {
    const def = current._zod?.def;
    if (!def) return false;
    if (def.type === 'array') return true;
    if (def.type === 'union') return def.options.some((o: z.ZodType) => isArrayField(o));
    current = def.innerType ?? def.in ?? undefined;
  }
  return false;
}
