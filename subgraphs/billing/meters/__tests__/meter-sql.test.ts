import pg from 'pg';
import { createTestDatabase } from '../../../../test/support/database.js';
import { numbered } from '../../../../kit/database/read/read-model.js';
import {
  type Aggregation,
  aggregationSql,
  eventColumns,
  type Filter,
  type FilterClause,
  filterSql,
  isUnderLimits,
  meterWhereSql,
  quantitiesSql,
} from '../meter-sql.js';

// Every operator and aggregation of docs/meters.md, run by PostgreSQL over a small table of events shaped like
// billing.usage_events, so the test proves what the SQL selects and adds up, not how its text looks.

const ORG = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
let database: { url: string; drop: () => Promise<void> };
let client: pg.Client;

const EVENTS: [string, string, string, Record<string, unknown>, string?][] = [
  // name, timestamp, customer, metadata, organization
  ['api.call', '2026-03-01T10:00:00Z', 'a', { tokens: 10, model: 'gpt-4', ok: true, _llm: { total_tokens: 100 } }],
  ['api.call', '2026-03-01T23:30:00Z', 'a', { tokens: 5, model: 'gpt-3.5', ok: false, _llm: { total_tokens: 50 } }],
  ['api.call', '2026-03-02T08:00:00Z', 'b', { tokens: 20, model: 'claude', ok: true }],
  ['api.call', '2026-03-03T08:00:00Z', 'b', { tokens: '7', model: 'gpt-4' }],
  ['upload', '2026-03-02T09:00:00Z', 'a', { bytes: 1000, model: 'gpt-4' }],
  ['api.call', '2026-03-02T08:00:00Z', 'c', { tokens: 1000 }, OTHER],
];

beforeAll(async () => {
  database = await createTestDatabase('meter_sql');
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(`create table events (id uuid primary key default gen_random_uuid(), organization_id uuid not null,
    name text not null, source text not null default 'user', timestamp timestamptz not null, customer_id uuid,
    external_customer_id text, metadata jsonb not null)`);
  for (const [name, timestamp, customer, metadata, org] of EVENTS)
    await client.query(
      'insert into events (organization_id, name, timestamp, external_customer_id, metadata) values ($1, $2, $3, $4, $5)',
      [org ?? ORG, name, timestamp, customer, JSON.stringify(metadata)],
    );
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

const e = eventColumns('e');

/** The names and token counts of the organization's events a filter selects, in timestamp order. */
async function select(filter: Filter | FilterClause): Promise<string[]> {
  const where = filterSql(filter, e);
  const { rows } = await client.query(
    numbered(
      `select e.name || ':' || coalesce(e.metadata->>'tokens', '-') as r from events e where e.organization_id = ? and ${where.sql} order by e.timestamp, e.name`,
    ),
    [ORG, ...where.values],
  );
  return rows.map(r => r.r);
}

const clause = (property: string, operator: FilterClause['operator'], value: FilterClause['value']): FilterClause => ({
  property,
  operator,
  value,
});

describe('filter operators', () => {
  it('eq and ne on the name; a value of the wrong type matches nothing', async () => {
    expect(await select(clause('name', 'eq', 'upload'))).toEqual(['upload:-']);
    expect(await select(clause('name', 'ne', 'upload'))).toHaveLength(4);
    expect(await select(clause('name', 'eq', 3))).toEqual([]);
  });

  it('gt, gte, lt, lte on numbers in metadata (a string "7" is compared as text: "7" > "10")', async () => {
    expect(await select(clause('tokens', 'gt', 10))).toEqual(['api.call:20', 'api.call:7']);
    expect(await select(clause('tokens', 'gte', 10))).toEqual(['api.call:10', 'api.call:20', 'api.call:7']);
    expect(await select(clause('tokens', 'lt', 10))).toEqual(['api.call:5']);
    expect(await select(clause('metadata.tokens', 'lte', 10))).toEqual(['api.call:10', 'api.call:5']);
    expect(await select(clause('tokens', 'eq', '7'))).toEqual(['api.call:7']);
  });

  it('like and not_like: contains, on text and on numbers as text; a missing property matches neither', async () => {
    expect(await select(clause('model', 'like', 'gpt'))).toEqual([
      'api.call:10',
      'api.call:5',
      'upload:-',
      'api.call:7',
    ]);
    expect(await select(clause('model', 'not_like', 'gpt'))).toEqual(['api.call:20']);
    expect(await select(clause('tokens', 'like', '0'))).toEqual(['api.call:10', 'api.call:20']);
    expect(await select(clause('name', 'like', 'load'))).toEqual(['upload:-']);
    expect(await select(clause('model', 'like', "%_'"))).toEqual([]);
  });

  it('booleans and nested paths', async () => {
    expect(await select(clause('ok', 'eq', true))).toEqual(['api.call:10', 'api.call:20']);
    expect(await select(clause('ok', 'ne', true))).toEqual(['api.call:5']);
    expect(await select(clause('_llm.total_tokens', 'gte', 60))).toEqual(['api.call:10']);
  });

  it('timestamp compares as epoch seconds', async () => {
    const epoch = Date.parse('2026-03-02T08:00:00Z') / 1000;
    expect(await select(clause('timestamp', 'gte', epoch))).toEqual(['api.call:20', 'upload:-', 'api.call:7']);
    expect(await select(clause('timestamp', 'lt', epoch))).toEqual(['api.call:10', 'api.call:5']);
    expect(await select(clause('timestamp', 'eq', 'x'))).toEqual([]);
  });

  it('nested and/or clauses; an empty clause list is true', async () => {
    const filter: Filter = {
      conjunction: 'or',
      clauses: [
        clause('name', 'eq', 'upload'),
        { conjunction: 'and', clauses: [clause('name', 'eq', 'api.call'), clause('tokens', 'gte', 20)] },
      ],
    };
    expect(await select(filter)).toEqual(['api.call:20', 'upload:-', 'api.call:7']);
    expect(await select({ conjunction: 'and', clauses: [] })).toHaveLength(5);
  });
});

async function aggregate(aggregation: Aggregation, filter: Filter = { conjunction: 'and', clauses: [] }) {
  const where = meterWhereSql({ filter, aggregation }, e);
  const { value } = aggregationSql(aggregation, e);
  const { rows } = await client.query(
    numbered(`select ${value.sql}::float8 as v from events e where e.organization_id = ? and ${where.sql}`),
    [...value.values, ORG, ...where.values],
  );
  return rows[0].v;
}

describe('aggregations', () => {
  const calls: Filter = { conjunction: 'and', clauses: [clause('name', 'eq', 'api.call')] };
  it('count, sum, max, min, avg (numeric ones skip events whose property is not a number), unique', async () => {
    expect(await aggregate({ func: 'count' }, calls)).toBe(4);
    expect(await aggregate({ func: 'sum', property: 'tokens' }, calls)).toBe(35);
    expect(await aggregate({ func: 'max', property: 'tokens' }, calls)).toBe(20);
    expect(await aggregate({ func: 'min', property: 'metadata.tokens' }, calls)).toBe(5);
    expect(await aggregate({ func: 'avg', property: 'tokens' }, calls)).toBeCloseTo(35 / 3);
    expect(await aggregate({ func: 'unique', property: 'model' })).toBe(3);
    expect(await aggregate({ func: 'sum', property: '_llm.total_tokens' })).toBe(150);
  });

  it('a text field cannot be summed; the timestamp sums as epoch seconds', async () => {
    expect(await aggregate({ func: 'sum', property: 'name' })).toBeNull();
    expect(await aggregate({ func: 'max', property: 'timestamp' }, calls)).toBe(
      Date.parse('2026-03-03T08:00:00Z') / 1000,
    );
  });
});

async function quantities(query: Partial<Parameters<typeof quantitiesSql>[0]> & { aggregation: Aggregation }) {
  const sql = quantitiesSql({
    meter: {
      filter: { conjunction: 'and', clauses: [clause('name', 'eq', 'api.call')] },
      aggregation: query.aggregation,
    },
    table: 'events',
    organizationId: ORG,
    start: new Date('2026-03-01T00:00:00Z'),
    end: new Date('2026-03-03T00:00:00Z'),
    interval: 'day',
    timezone: 'UTC',
    ...query,
  });
  const { rows } = await client.query(numbered(sql.sql), sql.values);
  return {
    days: rows.map(r => [r.timestamp.toISOString(), r.quantity]),
    total: rows.at(-1)?.total,
  };
}

describe('quantities: one statement', () => {
  it('buckets per day with a running total (sum), another organization never counted', async () => {
    expect(await quantities({ aggregation: { func: 'sum', property: 'tokens' } })).toEqual({
      days: [
        ['2026-03-01T00:00:00.000Z', 15],
        ['2026-03-02T00:00:00.000Z', 20],
        ['2026-03-03T00:00:00.000Z', 0],
      ],
      total: 35,
    });
  });

  it('in a time zone the buckets follow its wall clock', async () => {
    const result = await quantities({ aggregation: { func: 'count' }, timezone: 'Europe/Paris' });
    // 23:30 UTC on the 1st is 00:30 on the 2nd in Paris.
    expect(result.days.map(d => d[1])).toEqual([1, 2, 1]);
    // The series starts at the start asked (01:00 in Paris), each point naming its day's bucket.
    expect(result.days[0][0]).toBe('2026-03-01T00:00:00.000Z');
    expect(result.total).toBe(4);
  });

  it('max of maxima, and avg and unique over the whole range', async () => {
    expect((await quantities({ aggregation: { func: 'max', property: 'tokens' } })).total).toBe(20);
    expect((await quantities({ aggregation: { func: 'avg', property: 'tokens' } })).total).toBeCloseTo(35 / 3);
    expect((await quantities({ aggregation: { func: 'unique', property: 'model' } })).total).toBe(3);
  });

  it('per customer, then across customers', async () => {
    const result = await quantities({ aggregation: { func: 'sum', property: 'tokens' }, customerAggregation: 'max' });
    expect(result.days.map(d => d[1])).toEqual([15, 20, 0]);
    expect(result.total).toBe(20);
  });

  it('hour, week, month and year buckets', async () => {
    const month = await quantities({
      aggregation: { func: 'count' },
      interval: 'month',
      start: new Date('2026-01-15T00:00:00Z'),
      end: new Date('2026-04-15T00:00:00Z'),
    });
    expect(month.days.map(d => d[1])).toEqual([0, 0, 4, 0]);
    const hour = await quantities({ aggregation: { func: 'count' }, interval: 'hour' });
    expect(hour.days).toHaveLength(49);
    expect(hour.total).toBe(3); // the 3rd's 08:00 event is past the last hour
    const year = await quantities({ aggregation: { func: 'count' }, interval: 'year' });
    expect(year.days).toEqual([['2026-03-01T00:00:00.000Z', 4]]);
    const week = await quantities({ aggregation: { func: 'count' }, interval: 'week' });
    // 1 March 2026 is a Sunday: its week (from Monday 23 February) holds the 1st's two events only.
    expect(week.days).toEqual([['2026-03-01T00:00:00.000Z', 2]]);
  });

  it("Polar's range limits", () => {
    const day = (s: string) => new Date(s);
    expect(isUnderLimits(day('2026-01-01T00:00:00Z'), day('2026-01-09T00:00:00Z'), 'hour')).toBe(false);
    expect(isUnderLimits(day('2026-01-01T00:00:00Z'), day('2026-01-08T23:00:00Z'), 'hour')).toBe(true);
    expect(isUnderLimits(day('2026-01-02T00:00:00Z'), day('2026-01-01T00:00:00Z'), 'day')).toBe(false);
    expect(isUnderLimits(day('2025-01-01T00:00:00Z'), day('2026-01-02T00:00:00Z'), 'day')).toBe(true);
  });
});
