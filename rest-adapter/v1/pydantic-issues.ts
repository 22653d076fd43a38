import type { z } from 'zod';
import type { ValidationIssue } from '../../kit/errors.js';

export type Location = 'body' | 'query' | 'path' | 'header';

type ZodIssue = z.core.$ZodIssue;
type IssueOf<Code extends ZodIssue['code']> = Extract<ZodIssue, { code: Code }>;

/** Where an issue stands: its `loc`, the value found there, and the request it came from. */
interface Site {
  location: Location;
  loc: (string | number)[];
  value: unknown;
  input: unknown;
}

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

function toIssue(location: Location, issue: ZodIssue, input: unknown): ValidationIssue {
  const path = issue.path.map(p => (typeof p === 'symbol' ? String(p) : p)) as (string | number)[];
  const site: Site = { location, loc: [location, ...path], value: valueAt(input, issue.path as PropertyKey[]), input };
  const translate = (Object.hasOwn(PYDANTIC_WORDS, issue.code) ? PYDANTIC_WORDS[issue.code] : undefined) as
    | ((issue: ZodIssue, site: Site) => ValidationIssue)
    | undefined;
  return translate ? translate(issue, site) : valueError(issue, site);
}

const valueError = (issue: ZodIssue, { loc, value }: Site): ValidationIssue => ({
  type: 'value_error',
  loc,
  msg: issue.message,
  input: value ?? null,
});

/** pydantic's `missing`: the input it names is the object the field is missing from. */
const missing = (issue: ZodIssue, { loc, input }: Site): ValidationIssue => ({
  type: 'missing',
  loc,
  msg: 'Field required',
  input: valueAt(input, issue.path.slice(0, -1) as PropertyKey[]) ?? null,
});

const plural = (count: unknown, word: string) => `${count} ${word}${Number(count) === 1 ? '' : 's'}`;

/** pydantic's words for a length bound, by what zod measured (a string's characters, a list's items). */
const LENGTHS = new Map([
  ['string', { noun: 'String', unit: 'character', tooShort: 'string_too_short', tooLong: 'string_too_long' }],
  ['array', { noun: 'List', unit: 'item', tooShort: 'too_short', tooLong: 'too_long' }],
]);

function tooSmall(issue: IssueOf<'too_small'>, { loc, value }: Site): ValidationIssue {
  const min = Number(issue.minimum);
  const length = LENGTHS.get(issue.origin);
  if (length)
    return {
      type: length.tooShort,
      loc,
      msg: `${length.noun} should have at least ${plural(issue.minimum, length.unit)}`,
      input: value,
      ctx: { min_length: min },
    };
  return issue.inclusive
    ? {
        type: 'greater_than_equal',
        loc,
        msg: `Input should be greater than or equal to ${issue.minimum}`,
        input: value,
        ctx: { ge: min },
      }
    : {
        type: 'greater_than',
        loc,
        msg: `Input should be greater than ${issue.minimum}`,
        input: value,
        ctx: { gt: min },
      };
}

function tooBig(issue: IssueOf<'too_big'>, { loc, value }: Site): ValidationIssue {
  const max = Number(issue.maximum);
  const length = LENGTHS.get(issue.origin);
  if (length)
    return {
      type: length.tooLong,
      loc,
      msg: `${length.noun} should have at most ${issue.maximum} ${length.unit}s`,
      input: value,
      ctx: { max_length: max },
    };
  return {
    type: 'less_than_equal',
    loc,
    msg: `Input should be less than or equal to ${issue.maximum}`,
    input: value,
    ctx: { le: max },
  };
}

/** A string format zod checks → pydantic's type and message for it; other formats are a pattern mismatch. */
const FORMATS = new Map<string, { type: string; msg: string }>([
  ['uuid', { type: 'uuid_parsing', msg: 'Input should be a valid UUID' }],
  ['email', { type: 'value_error', msg: 'value is not a valid email address' }],
  ['url', { type: 'url_parsing', msg: 'Input should be a valid URL' }],
  ['datetime', { type: 'datetime_from_date_parsing', msg: 'Input should be a valid datetime' }],
]);

function invalidFormat(issue: IssueOf<'invalid_format'>, { loc, value }: Site): ValidationIssue {
  const known = FORMATS.get(issue.format);
  return known
    ? { type: known.type, loc, msg: known.msg, input: value }
    : { type: 'string_pattern_mismatch', loc, msg: issue.message, input: value };
}

function invalidValue(issue: IssueOf<'invalid_value'>, site: Site): ValidationIssue {
  if (site.value === undefined && issue.path.length) return missing(issue, site);
  const quoted = issue.values.map(v => `'${String(v)}'`);
  return {
    type: issue.values.length === 1 ? 'literal_error' : 'enum',
    loc: site.loc,
    msg: `Input should be ${quoted.join(', ').replace(/, ([^,]*)$/, ' or $1')}`,
    input: site.value,
    ctx: { expected: quoted.join(', ') },
  };
}

/** A discriminated union's tag: missing, or none of the expected ones; `loc` is the object's. */
function unionTag(issue: IssueOf<'invalid_union'>, discriminatorKey: string, { loc, value, input }: Site) {
  const parentLoc = loc.slice(0, -1);
  const parent = valueAt(input, issue.path.slice(0, -1) as PropertyKey[]) ?? null;
  const discriminator = `'${discriminatorKey}'`;
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

function invalidUnion(issue: IssueOf<'invalid_union'>, site: Site): ValidationIssue {
  if (typeof issue.discriminator === 'string') return unionTag(issue, issue.discriminator, site);
  // A plain union (`datetime | date`): report the first alternative's complaint, as specific as it gets.
  const first = (issue.errors as ZodIssue[][] | undefined)?.[0]?.[0];
  if (first) return toIssue(site.location, { ...first, path: [...issue.path, ...first.path] }, site.input);
  return valueError(issue, site);
}

function custom(issue: IssueOf<'custom'>, site: Site): ValidationIssue {
  // Checks written for this API carry pydantic's own words in `params` (see `pydanticIssue` in validation.ts).
  const own = issue.params as Partial<ValidationIssue> | undefined;
  if (own?.type && own.msg)
    return {
      type: own.type,
      loc: site.loc,
      msg: own.msg,
      input: site.value ?? null,
      ...(own.ctx ? { ctx: own.ctx } : {}),
    };
  return valueError(issue, site);
}

const unrecognizedKeys = (issue: IssueOf<'unrecognized_keys'>, { loc, value }: Site): ValidationIssue => ({
  type: 'extra_forbidden',
  loc: [...loc, issue.keys[0]],
  msg: 'Extra inputs are not permitted',
  input: valueAt(value, [issue.keys[0]]),
});

function invalidType(issue: IssueOf<'invalid_type'>, site: Site): ValidationIssue {
  if (site.value === undefined) return missing(issue, site);
  return {
    type: `${issue.expected}_type`,
    loc: site.loc,
    msg: `Input should be a valid ${issue.expected}`,
    input: site.value,
  };
}

/** Each zod issue code's pydantic wording; a code not here is a plain `value_error` with zod's message. */
const PYDANTIC_WORDS: { [Code in ZodIssue['code']]?: (issue: IssueOf<Code>, site: Site) => ValidationIssue } = {
  invalid_type: invalidType,
  too_small: tooSmall,
  too_big: tooBig,
  invalid_format: invalidFormat,
  invalid_value: invalidValue,
  invalid_union: invalidUnion,
  custom,
  unrecognized_keys: unrecognizedKeys,
};
