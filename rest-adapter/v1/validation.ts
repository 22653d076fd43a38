import { z } from 'zod';
import { RequestValidationError, type ValidationIssue } from '../../kit/errors.js';
import { type Location, toValidationIssues } from './pydantic-issues.js';

export function parseOrThrow<T extends z.ZodType>(schema: T, location: Location, input: unknown): z.output<T> {
  refuseTooDeep(location, input);
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new RequestValidationError(toValidationIssues(location, parsed.error, input));
  refuseNul(location, parsed.data);
  return parsed.data;
}

/**
 * What the edge checks of a body whose shape the subgraph reads itself (a route's `bodyShapeCheckedBySubgraph`):
 * JSON no deeper than any body of this API, without a NUL in any string or key. Answers the input unchanged.
 */
export function checkJson(location: Location, input: unknown): unknown {
  // One walk for both: a batch is thousands of values, and each walk over it cost as much as parsing it.
  const found = scan(input, 0);
  if (found & TOO_DEEP) refuseTooDeep(location, input);
  if (found & HAS_NUL) throw new RequestValidationError(nulIssues(location, input));
  return input;
}

const TOO_DEEP = 1;
const HAS_NUL = 2;

/** `TOO_DEEP` (the walk stops there) and `HAS_NUL` of `value`, a JSON value `depth` levels down. */
function scan(value: unknown, depth: number): number {
  if (typeof value === 'string') return value.includes('\u0000') ? HAS_NUL : 0;
  if (value === null || typeof value !== 'object') return 0;
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  let found = 0;
  if (Array.isArray(value)) {
    for (const item of value) if ((found |= scan(item, depth + 1)) & TOO_DEEP) return found;
  } else
    for (const key in value) {
      if (key.includes('\u0000')) found |= HAS_NUL;
      if ((found |= scan((value as Record<string, unknown>)[key], depth + 1)) & TOO_DEEP) return found;
    }
  return found;
}

function refuseTooDeep(location: Location, input: unknown): void {
  if (tooDeep(input, MAX_DEPTH))
    throw new RequestValidationError([
      { type: 'json_invalid', loc: [location], msg: `JSON nesting deeper than ${MAX_DEPTH} levels`, input: null },
    ]);
}

function refuseNul(location: Location, data: unknown): void {
  // Most bodies hold no NUL: one walk without building paths first, the paths only for a body that has one.
  if (!holdsNul(data, 0)) return;
  throw new RequestValidationError(nulIssues(location, data));
}

/**
 * Deeper JSON than any body of this API has: refused before anything recurses into it (zod, the
 * key mapping, echoing `input` back), which would otherwise overflow the stack. The walk itself
 * recurses at most `max` levels.
 */
const MAX_DEPTH = 32;

function tooDeep(value: unknown, max: number, depth = 0): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth >= max) return true;
  if (Array.isArray(value)) {
    for (const child of value) if (tooDeep(child, max, depth + 1)) return true;
  } else for (const key in value) if (tooDeep((value as Record<string, unknown>)[key], max, depth + 1)) return true;
  return false;
}

/**
 * PostgreSQL text cannot hold U+0000, so a NUL in any accepted string (or key) would fail in the
 * database: it is refused here, where the caller learns which field.
 */
const NUL_MESSAGE = 'Value error, the NUL character (U+0000) is not allowed';

/** Whether a string or key of `value` holds a NUL (no deeper than MAX_DEPTH: `refuseTooDeep` ran first). */
function holdsNul(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsNul(item, depth + 1)) return true;
    return false;
  }
  for (const key in value) {
    if (key.includes('\u0000') || holdsNul((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

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
