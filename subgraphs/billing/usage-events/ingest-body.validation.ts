import { z } from 'zod';
import { RequestValidationError, type ValidationIssue } from '../../../kit/errors.js';
import { isRealDate } from '../../../kit/real-date.js';

/** Polar's limit on an event's name. */
export const MAX_EVENT_NAME_LENGTH = 128;
/** Batches of at most this many events (Polar sets none; a bound keeps one statement's parameter small). */
export const MAX_INGEST_BATCH = 1000;

/**
 * One event of an ingest batch as it arrives, read and checked: Polar's EventCreateCustomer |
 * EventCreateExternalCustomer with its wire (snake_case) names, `timestamp` as a canonical instant.
 */
export interface IngestEvent {
  timestamp?: string;
  name: string;
  organization_id?: string | null;
  external_id?: string | null;
  parent_id?: string | null;
  metadata?: Record<string, unknown>;
  customer_id?: string;
  member_id?: string | null;
  external_customer_id?: string;
  external_member_id?: string | null;
}

type Loc = (string | number)[];
/**
 * A field's check: pushes its issues (at `body.events.<index>.<key>`, built only when there is one: most batches
 * have none) and answers the value as the service takes it.
 */
type Check = (value: unknown, index: number, key: string, issues: ValidationIssue[]) => unknown;

// The edge's own patterns (zod's, which its documented schema uses), so both accept the same strings.
const UUID = z.regexes.uuid();
const DATE_TIME = z.regexes.datetime({ offset: true });

const at = (index: number, key: string): Loc => ['body', 'events', index, key];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeIssue = (loc: Loc, kind: string, input: unknown): ValidationIssue => ({
  type: `${kind}_type`,
  loc,
  msg: `Input should be a valid ${kind}`,
  input,
});

const text: Check = (value, index, key, issues) => {
  if (typeof value !== 'string') issues.push(typeIssue(at(index, key), 'string', value));
  return value;
};

const uuid: Check = (value, index, key, issues) => {
  if (typeof value !== 'string') issues.push(typeIssue(at(index, key), 'string', value));
  else if (!UUID.test(value))
    issues.push({ type: 'uuid_parsing', loc: at(index, key), msg: 'Input should be a valid UUID', input: value });
  return value;
};

/** An ISO 8601 date-time with an offset, on a real day; read as the canonical instant the service stores. */
const dateTime: Check = (value, index, key, issues) => {
  if (typeof value !== 'string') issues.push(typeIssue(at(index, key), 'string', value));
  else if (!DATE_TIME.test(value))
    issues.push({
      type: 'datetime_from_date_parsing',
      loc: at(index, key),
      msg: 'Input should be a valid datetime',
      input: value,
    });
  else if (!isRealDate(value))
    issues.push({
      type: 'datetime_parsing',
      loc: at(index, key),
      msg: 'Input should be a valid datetime, day value is outside expected range',
      input: value,
    });
  else return new Date(value).toISOString();
  return value;
};

/** A name: a string of 1 to 128 characters (at most 128 UTF-16 units is at most 128 characters). */
const name: Check = (value, index, key, issues) => {
  if (typeof value === 'string' && value.length >= 1 && value.length <= MAX_EVENT_NAME_LENGTH) return value;
  if (typeof value !== 'string') issues.push(typeIssue(at(index, key), 'string', value));
  lengthBounds(value, at(index, key), 1, MAX_EVENT_NAME_LENGTH, issues);
  return value;
};

/**
 * Length bounds as the documented schema checks them: strings counted in code points (as pydantic counts
 * characters), and, like that schema, also any value of another type that has a `length`, each bound a further item.
 */
function lengthBounds(value: unknown, loc: Loc, min: number | null, max: number, issues: ValidationIssue[]): void {
  const units = value == null ? undefined : (value as { length?: unknown }).length;
  if (units === undefined) return;
  const text = typeof value === 'string';
  const kind = text ? 'string' : Array.isArray(value) ? 'array' : undefined;
  const codePoints = () => [...(value as string)].length;
  if (min !== null) {
    const length = text && (units as number) >= min && (units as number) < min * 2 ? codePoints() : units;
    if (!((length as number) >= min)) issues.push(lengthIssue(loc, kind, 'min', min, value));
  }
  const length = text && (units as number) > max ? codePoints() : units;
  if (!((length as number) <= max)) issues.push(lengthIssue(loc, kind, 'max', max, value));
}

/** pydantic's error types and words for each bound: of a length (a string's, a list's) or of a number. */
const BOUNDS = {
  min: {
    string: 'string_too_short',
    list: 'too_short',
    words: 'at least',
    length: 'min_length',
    number: 'greater_than_equal',
    compare: 'greater than or equal to',
    ctx: 'ge',
  },
  max: {
    string: 'string_too_long',
    list: 'too_long',
    words: 'at most',
    length: 'max_length',
    number: 'less_than_equal',
    compare: 'less than or equal to',
    ctx: 'le',
  },
} as const;

/** pydantic's words for a length bound missed by a string, a list, or another value with a `length`. */
function lengthIssue(
  loc: Loc,
  kind: 'string' | 'array' | undefined,
  bound: 'min' | 'max',
  limit: number,
  input: unknown,
) {
  const b = BOUNDS[bound];
  if (!kind)
    return { type: b.number, loc, msg: `Input should be ${b.compare} ${limit}`, input, ctx: { [b.ctx]: limit } };
  const [noun, unit] = kind === 'string' ? ['String', 'character'] : ['List', 'item'];
  return {
    type: kind === 'string' ? b.string : b.list,
    loc,
    msg: `${noun} should have ${b.words} ${limit} ${unit}${limit === 1 ? '' : 's'}`,
    input,
    ctx: { [b.length]: limit },
  };
}

/** Metadata's shape only: a JSON object. Its values are the service's (usage-event.validation.ts). */
const record: Check = (value, index, key, issues) => {
  if (!isObject(value)) issues.push(typeIssue(at(index, key), 'record', value));
  return value;
};

/**
 * An event's fields in the order the edge's documented schema lists them (rest-adapter/v1/routes/usage.schemas.ts),
 * which is the order of the issues: `null` allowed or not, and whether the field may be absent.
 */
const FIELDS: { key: keyof IngestEvent; check: Check; nullable: boolean; required: boolean }[] = [
  { key: 'timestamp', check: dateTime, nullable: false, required: false },
  { key: 'name', check: name, nullable: false, required: true },
  { key: 'organization_id', check: uuid, nullable: true, required: false },
  { key: 'external_id', check: text, nullable: true, required: false },
  { key: 'parent_id', check: text, nullable: true, required: false },
  { key: 'metadata', check: record, nullable: false, required: false },
  { key: 'customer_id', check: uuid, nullable: false, required: false },
  { key: 'member_id', check: uuid, nullable: true, required: false },
  { key: 'external_customer_id', check: text, nullable: false, required: false },
  { key: 'external_member_id', check: text, nullable: true, required: false },
];
const KNOWN = new Set<string>(FIELDS.map(field => field.key));

function readEvent(value: unknown, index: number, issues: ValidationIssue[]): IngestEvent {
  if (!isObject(value)) {
    issues.push(typeIssue(['body', 'events', index], 'object', value));
    return value as never;
  }
  let event: Record<string, unknown> = value;
  for (const { key, check, nullable, required } of FIELDS) {
    const field = value[key];
    if (field === undefined) {
      if (required) issues.push({ type: 'missing', loc: at(index, key), msg: 'Field required', input: value });
      continue;
    }
    if (field === null && nullable) continue;
    const read = check(field, index, key, issues);
    // Only a timestamp is read into another form; the caller's object is not changed.
    if (read !== field) event = { ...event, [key]: read };
  }
  for (const key in value)
    if (!KNOWN.has(key)) {
      issues.push({
        type: 'extra_forbidden',
        loc: at(index, key),
        msg: 'Extra inputs are not permitted',
        input: value[key],
      });
      break;
    }
  return event as unknown as IngestEvent;
}

/**
 * The body of an ingest, `{"events": [...]}`, read in one pass: the events, or a 422 with every problem of its
 * shape, each at its `loc` (`body.events.3.customer_id`), in the words and order the edge's documented schema
 * gives. The edge does not check this body's shape itself, so it is checked once, here, for REST and GraphQL
 * callers alike (docs/usage-events.md#ingest).
 */
export function readIngestBody(body: unknown): IngestEvent[] {
  const issues: ValidationIssue[] = [];
  if (!isObject(body)) throw new RequestValidationError([typeIssue(['body'], 'object', body ?? null)]);
  const events = body.events;
  const loc: Loc = ['body', 'events'];
  let read: IngestEvent[] = [];
  if (events === undefined) issues.push({ type: 'missing', loc, msg: 'Field required', input: body });
  else {
    // As the documented schema: a list too long is that one item, without its events' own.
    if (!Array.isArray(events)) issues.push(typeIssue(loc, 'array', events));
    const before = issues.length;
    lengthBounds(events, loc, null, MAX_INGEST_BATCH, issues);
    if (Array.isArray(events) && issues.length === before)
      read = events.map((event, index) => readEvent(event, index, issues));
  }
  for (const key in body)
    if (key !== 'events') {
      issues.push({
        type: 'extra_forbidden',
        loc: ['body', key],
        msg: 'Extra inputs are not permitted',
        input: body[key],
      });
      break;
    }
  if (issues.length) throw new RequestValidationError(issues);
  return read;
}
