import fc from 'fast-check';
import { RequestValidationError } from '../../../../kit/errors.js';
import { toValidationIssues } from '../../../../rest-adapter/v1/pydantic-issues.js';
import { eventsIngestBody } from '../../../../rest-adapter/v1/routes/usage.schemas.js';
import { readIngestBody } from '../ingest-body.validation.js';

// The edge documents the ingest's body with its zod schema but no longer runs it: billing reads the body itself
// (docs/usage-events.md#ingest). Whatever a caller sends, billing must answer what that schema would have: the same
// 422 items in the same order, or the same events (timestamps as the same canonical instants).

/** What the edge's documented schema answers: its items, or the events it reads. */
function documented(body: unknown) {
  const parsed = eventsIngestBody.safeParse(body);
  return parsed.success ? { events: parsed.data.events } : { issues: toValidationIssues('body', parsed.error, body) };
}

function billing(body: unknown) {
  try {
    return { events: readIngestBody(body) };
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    return { issues: error.details };
  }
}

const UUID = '0b9ab1e5-3d2c-4c57-9d3b-8f1e2a6c7d40';
/** Values a field may meet: right ones, near misses, and wrong types. */
const anyValue = fc.oneof(
  fc.constantFrom(
    UUID,
    UUID.toUpperCase(),
    '0b9ab1e5-3d2c-0c57-9d3b-8f1e2a6c7d40', // version 0: not a UUID to zod
    '00000000-0000-0000-0000-000000000000',
    'not-a-uuid',
    '',
    'x',
    'n'.repeat(128),
    'n'.repeat(129),
    '\u{1F600}'.repeat(128), // 256 UTF-16 units, 128 characters
    '\u{1F600}'.repeat(129),
    '\uD800',
    'x'.repeat(1001),
    '2026-03-01T10:00:00Z',
    '2026-03-01T10:00:00.123+05:30',
    '2026-03-01T10:00Z',
    '2026-02-30T10:00:00Z',
    '2024-02-29T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:00:00-05:00',
    '2026-03-01',
    'yesterday',
    null,
    true,
    0,
    12.5,
  ),
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.constant([]),
  fc.constant({}),
  fc.constantFrom(
    { length: 200 },
    { length: 'x' },
    { length: 0 },
    Array.from({ length: 129 }, () => 1),
  ),
  fc.dictionary(fc.constantFrom('tokens', 'model', '_cost'), fc.oneof(fc.integer(), fc.string({ maxLength: 3 }))),
);
const FIELDS = [
  'timestamp',
  'name',
  'organization_id',
  'external_id',
  'parent_id',
  'metadata',
  'customer_id',
  'member_id',
  'external_customer_id',
  'external_member_id',
];
const anyKey = fc.oneof(fc.constantFrom(...FIELDS), fc.constantFrom('colour', 'customerId', 'events', '__proto__'));
/** An event: a valid one with fields changed, added or removed, or not an object at all. */
const anyEvent = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({ name: fc.constant('api.call'), external_customer_id: fc.constant('c-1') }).chain(base =>
      fc.array(fc.tuple(anyKey, fc.option(anyValue, { nil: undefined })), { maxLength: 4 }).map(changes => {
        const event: Record<string, unknown> = { ...base };
        for (const [key, value] of changes) {
          if (value === undefined) delete event[key];
          else event[key] = value;
        }
        return event;
      }),
    ),
  },
  { weight: 1, arbitrary: anyValue },
);
const anyBody = fc.oneof(
  { weight: 10, arbitrary: fc.array(anyEvent, { maxLength: 5 }).map(events => ({ events })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.array(anyEvent, { maxLength: 3 }), fc.constantFrom('extra', 'events'), anyValue)
      .map(([events, key, value]) => (key === 'events' ? { events: value } : { [key]: value, events })),
  },
  { weight: 1, arbitrary: anyValue },
  { weight: 1, arbitrary: fc.constant({}) },
);

describe('the ingest body as billing reads it', () => {
  it('answers what the edge documents, for any body', () => {
    fc.assert(
      fc.property(anyBody, body => {
        expect(billing(body)).toEqual(documented(body));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 3000), seed: Number(process.env.FUZZ_SEED ?? 20261129) },
    );
  });

  it('answers one too_long item for a batch over 1,000 events, whatever the events are', () => {
    const events = Array.from({ length: 1001 }, (_, i) => (i % 2 ? { name: 1 } : { name: 'a', customer_id: UUID }));
    expect(billing({ events, extra: 1 })).toEqual(documented({ events, extra: 1 }));
    expect(billing({ events }).issues).toMatchObject([{ type: 'too_long', loc: ['body', 'events'] }]);
  });

  it('reads a valid batch without changing the caller objects', () => {
    const body = { events: [{ name: 'a', external_customer_id: 'c', timestamp: '2026-03-01T10:00:00+01:00' }] };
    const copy = structuredClone(body);
    expect(billing(body)).toEqual({
      events: [{ name: 'a', external_customer_id: 'c', timestamp: '2026-03-01T09:00:00.000Z' }],
    });
    expect(body).toEqual(copy);
  });
});
