import { z } from 'zod';
import { RequestValidationError, type ValidationIssue } from '../../kit/errors.js';

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
  // Every item carries `input` (null when there is none), as pydantic's do and clients expect.
  return error.issues
    .map(issue => toIssue(location, issue, input))
    .map(item => ({ ...item, input: item.input ?? null }));
}

function toIssue(location: Location, issue: z.core.$ZodIssue, input: unknown): ValidationIssue {
  {
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
        if (value === undefined && issue.path.length)
          return {
            type: 'missing',
            loc,
            msg: 'Field required',
            input: valueAt(input, issue.path.slice(0, -1) as PropertyKey[]) ?? null,
          };
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
      case 'invalid_union': {
        if (typeof issue.discriminator === 'string') {
          const parentLoc = loc.slice(0, -1);
          const parent = valueAt(input, issue.path.slice(0, -1) as PropertyKey[]) ?? null;
          const discriminator = `'${issue.discriminator}'`;
          if (value === undefined)
            return {
              type: 'union_tag_not_found',
              loc: parentLoc,
              msg: `Unable to extract tag using discriminator ${discriminator}`,
              input: parent,
              ctx: { discriminator },
            };
          const tag = typeof value === 'string' ? value : (JSON.stringify(value) ?? typeof value);
          const expected = (((issue as { options?: unknown[] }).options ?? []) as unknown[])
            .map(o => `'${String(o)}'`)
            .join(', ');
          return {
            type: 'union_tag_invalid',
            loc: parentLoc,
            msg: `Input tag '${tag}' found using ${discriminator} does not match any of the expected tags: ${expected}`,
            input: parent,
            ctx: { discriminator, tag, expected_tags: expected },
          };
        }
        // A plain union (`datetime | date`): report the first alternative's complaint, as specific as it gets.
        const first = (issue.errors as z.core.$ZodIssue[][] | undefined)?.[0]?.[0];
        if (first) return toIssue(location, { ...first, path: [...issue.path, ...first.path] }, input);
        return { type: 'value_error', loc, msg: issue.message, input: value ?? null };
      }
      case 'custom': {
        // Checks written for this API carry pydantic's own words in `params` (see `pydanticIssue`).
        const own = issue.params as Partial<ValidationIssue> | undefined;
        if (own?.type && own.msg)
          return { type: own.type, loc, msg: own.msg, input: value ?? null, ...(own.ctx ? { ctx: own.ctx } : {}) };
        return { type: 'value_error', loc, msg: issue.message, input: value ?? null };
      }
      case 'unrecognized_keys':
        return {
          type: 'extra_forbidden',
          loc: [...loc, issue.keys[0]],
          msg: 'Extra inputs are not permitted',
          input: valueAt(value, [issue.keys[0]]),
        };
      default:
        return { type: 'value_error', loc, msg: issue.message, input: value ?? null };
    }
  }
}

export function parseOrThrow<T extends z.ZodType>(schema: T, location: Location, input: unknown): z.output<T> {
  if (tooDeep(input, MAX_DEPTH))
    throw new RequestValidationError([
      { type: 'json_invalid', loc: [location], msg: `JSON nesting deeper than ${MAX_DEPTH} levels`, input: null },
    ]);
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new RequestValidationError(toValidationIssues(location, parsed.error, input));
  const nul = nulIssues(location, parsed.data);
  if (nul.length) throw new RequestValidationError(nul);
  return parsed.data;
}

/**
 * Deeper JSON than any body of this API has: refused before anything recurses into it (zod, the
 * key mapping, echoing `input` back), which would otherwise overflow the stack.
 */
const MAX_DEPTH = 32;

function tooDeep(root: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(value))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * PostgreSQL text cannot hold U+0000, so a NUL in any accepted string (or key) would fail in the
 * database: it is refused here, where the caller learns which field.
 */
const NUL_MESSAGE = 'Value error, the NUL character (U+0000) is not allowed';

function nulIssues(location: Location, data: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const visit = (value: unknown, path: (string | number)[]) => {
    if (issues.length >= 10) return;
    if (typeof value === 'string') {
      if (value.includes('\u0000'))
        issues.push({ type: 'value_error', loc: [location, ...path], msg: NUL_MESSAGE, input: value });
      return;
    }
    if (value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) visit(item, [...path, i]);
    } else
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000'))
          issues.push({ type: 'value_error', loc: [location, ...path, key], msg: NUL_MESSAGE, input: key });
        visit(item, [...path, key]);
      }
  };
  visit(data, []);
  return issues;
}

/**
 * The `signature` of a signed link (file storage, invoice PDFs) as the adapter forwards it: an HMAC in
 * base64url is all the signer ever writes, so anything else (a NUL, a control character, a space)
 * cannot be one and goes on empty, which the signer's check refuses like any wrong signature (403).
 * Forwarded as sent, a NUL would be refused by the subgraphs' string guard as a client error the
 * adapter cannot map (kit/graphql/nul-input.ts).
 */
export function linkSignature(raw: string): string {
  return /^[A-Za-z0-9_-]{1,200}$/.test(raw) ? raw : '';
}

/** A zod issue in pydantic's words, for checks zod has no code for (read back by `toValidationIssues`). */
export function pydanticIssue(
  ctx: z.RefinementCtx,
  input: unknown,
  type: string,
  msg: string,
  issueCtx?: Record<string, unknown>,
): void {
  ctx.addIssue({ code: 'custom', message: msg, input, params: { type, msg, ...(issueCtx ? { ctx: issueCtx } : {}) } });
}

/**
 * Query strings arrive as repeated keys (`?status=a&status=b`) and deep objects
 * (`metadata[key]=v`). Array-typed fields get every value, scalars the last one, map-typed fields
 * (`metadata`) their `key[sub]` pairs. Other bracketed keys (`page[]=2`, `sorting[0]=x`) are not
 * parameters of the route and are ignored, as any unknown key is.
 * A map-typed field also named plainly (`metadata=x`, before or after its `metadata[k]=1` pairs) keeps
 * the plain value, which the schema then refuses (422 `record_type`) whatever the order.
 */
export function queryObject(search: URLSearchParams, schema: z.ZodObject<any> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const shape = schema?.shape ?? {};
  for (const [rawKey, value] of search) {
    const deep = /^([^[\]]+)\[([^[\]]*)\]$/.exec(rawKey);
    if (deep) {
      const [, key, sub] = deep;
      if (fieldKind(shape[key]) !== 'record') continue;
      if (Object.hasOwn(out, key) && !isQueryMap(out[key])) continue;
      // No prototype: `metadata[constructor]=1` and `metadata[__proto__]=1` are keys like any other.
      const map = (out[key] ??= Object.create(null)) as Record<string, string[]>;
      (map[sub] ??= []).push(value);
      continue;
    }
    if (fieldKind(shape[rawKey]) === 'array') ((out[rawKey] ??= []) as string[]).push(value);
    else out[rawKey] = value;
  }
  return out;
}

/** The `key[sub]` pairs collected for a map-typed field (a prototype-less object of value lists). */
function isQueryMap(value: unknown): value is Record<string, string[]> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fieldKind(schema: z.ZodType | undefined): 'array' | 'record' | 'scalar' {
  let current: any = schema;
  while (current) {
    const def = current._zod?.def;
    if (!def) break;
    if (def.type === 'array') return 'array';
    if (def.type === 'record') return 'record';
    if (def.type === 'union') {
      const kinds = def.options.map((o: z.ZodType) => fieldKind(o));
      return kinds.includes('array') ? 'array' : kinds.includes('record') ? 'record' : 'scalar';
    }
    current = def.innerType ?? def.in ?? undefined;
  }
  return 'scalar';
}

/**
 * A request target whose path Express can decode: a segment with a bad percent escape (`%zz`, a lone
 * `%`) or escaped bytes that are not UTF-8 (`%FF`) is decoded leniently (bad escapes kept as text,
 * bad bytes as U+FFFD) and re-encoded, as Starlette reads paths. The route then rejects the value
 * (422 `uuid_parsing` for an id) instead of Express failing the request with a decoding error.
 */
export function decodablePath(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  if (!path.includes('%')) return url;
  const segments = path.split('/').map(segment => {
    try {
      decodeURIComponent(segment);
      return segment;
    } catch {
      return encodeURIComponent(lenientDecode(segment));
    }
  });
  return segments.join('/') + (queryAt < 0 ? '' : url.slice(queryAt));
}

function lenientDecode(segment: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; i += 1) {
    if (/^%[0-9a-fA-F]{2}/.test(segment.slice(i, i + 3))) {
      bytes.push(Number.parseInt(segment.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(segment[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}
