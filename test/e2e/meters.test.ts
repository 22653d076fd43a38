import { ManualClock } from '../../kit/clock.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Meters through the public API (docs/meters.md): create, list, get, update and archive; every aggregation's
 * quantities over ingested events; Polar's 422s (a bad filter at its clause, a custom unit without a label, range
 * limits, a billed meter's filter, archiving a meter a credit benefit uses); another organization's meters never
 * visible.
 */
const wall = new ManualClock(new Date('2028-04-01T08:00:00.000Z'));
let stack: TestStack;
let base: string;
let shop: Tenant;
let other: Tenant;

const calls = { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.call' }] };
const march = 'start_timestamp=2028-03-01T00:00:00Z&end_timestamp=2028-03-03T00:00:00Z&interval=day';

beforeAll(async () => {
  stack = await sharedTestStack(wall);
  base = stack.production.baseUrl;
  shop = await createTenant(stack.production);
  other = await createTenant(stack.production);
  const at = (day: number, hour: number) => `2028-03-0${day}T${String(hour).padStart(2, '0')}:00:00Z`;
  const res = await api('POST', '/v1/events/ingest', {
    events: [
      { name: 'api.call', external_customer_id: 'a', timestamp: at(1, 9), metadata: { tokens: 10, model: 'gpt-4' } },
      { name: 'api.call', external_customer_id: 'a', timestamp: at(1, 15), metadata: { tokens: 30, model: 'gpt-4' } },
      { name: 'api.call', external_customer_id: 'b', timestamp: at(2, 9), metadata: { tokens: 5, model: 'claude' } },
      { name: 'api.call', external_customer_id: 'b', timestamp: at(3, 9), metadata: { tokens: 'n/a' } },
      { name: 'upload', external_customer_id: 'a', timestamp: at(2, 10), metadata: { tokens: 1000 } },
    ],
  });
  expect(res.body).toEqual({ inserted: 5, duplicates: 0 });
  // Another organization's events of the same name never count.
  await api(
    'POST',
    '/v1/events/ingest',
    {
      events: [{ name: 'api.call', external_customer_id: 'a', timestamp: at(1, 9), metadata: { tokens: 99 } }],
    },
    other.oat,
  );
}, 120_000);

function api(method: string, path: string, body?: unknown, token = shop.oat) {
  return call(base, method, path, { token, body });
}
const meter = async (name: string, aggregation: unknown, extra: Record<string, unknown> = {}) => {
  const res = await api('POST', '/v1/meters/', { name, filter: calls, aggregation, ...extra });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body;
};
const quantities = async (id: string, query = march) => (await api('GET', `/v1/meters/${id}/quantities?${query}`)).body;

describe('create, read, update', () => {
  it("creates with Polar's fields, lists, gets, renames and archives", async () => {
    const created = await meter('Tokens', { func: 'sum', property: 'metadata.tokens' }, { unit: 'token' });
    expect(created).toMatchObject({
      name: 'Tokens',
      unit: 'token',
      custom_label: null,
      custom_multiplier: null,
      filter: calls,
      aggregation: { func: 'sum', property: 'tokens' },
      organization_id: shop.organizationId,
      archived_at: null,
      metadata: {},
      modified_at: null,
    });
    expect((await api('GET', `/v1/meters/${created.id}`)).body).toEqual(created);
    const custom = await meter(
      'Requests',
      { func: 'count' },
      { unit: 'custom', custom_label: 'request', custom_multiplier: 1000 },
    );
    expect(custom).toMatchObject({ unit: 'custom', custom_label: 'request', custom_multiplier: 1000 });
    const renamed = await api('PATCH', `/v1/meters/${created.id}`, { name: 'LLM tokens', is_archived: true });
    expect(renamed.body).toMatchObject({ name: 'LLM tokens', archived_at: '2028-04-01T08:00:00.000Z' });
    const live = await api('GET', '/v1/meters/?is_archived=false&limit=100');
    expect(live.body.items.map((m: { id: string }) => m.id)).not.toContain(created.id);
    const found = await api('GET', '/v1/meters/?query=llm');
    expect(found.body.items.map((m: { id: string }) => m.id)).toEqual([created.id]);
    const back = await api('PATCH', `/v1/meters/${created.id}`, { is_archived: false });
    expect(back.body.archived_at).toBeNull();
  });

  it("answers Polar's 422s at the right loc", async () => {
    const badClause = await api('POST', '/v1/meters/', {
      name: 'Bad',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'contains', value: 'x' }] },
      aggregation: { func: 'count' },
    });
    expect(badClause.status).toBe(422);
    expect(badClause.body.detail[0].loc).toEqual(['body', 'filter', 'clauses', 0, 'operator']);
    const noLabel = await api('POST', '/v1/meters/', {
      name: 'Bad',
      unit: 'custom',
      filter: calls,
      aggregation: { func: 'count' },
    });
    expect(noLabel.status).toBe(422);
    expect(noLabel.body.detail[0].msg).toContain('custom_label is required');
    const short = await api('POST', '/v1/meters/', { name: 'ab', filter: calls, aggregation: { func: 'count' } });
    expect(short.body.detail[0].loc).toEqual(['body', 'name']);
    const noProperty = await api('POST', '/v1/meters/', {
      name: 'Bad sum',
      filter: calls,
      aggregation: { func: 'sum' },
    });
    expect(noProperty.status).toBe(422);
    const m = await meter('Range', { func: 'count' });
    const hourly = await api(
      'GET',
      `/v1/meters/${m.id}/quantities?start_timestamp=2028-03-01T00:00:00Z&end_timestamp=2028-03-09T00:00:00Z&interval=hour`,
    );
    expect(hourly.status).toBe(422);
    expect(hourly.body.detail[0].loc).toEqual(['query']);
    const early = await api(
      'GET',
      `/v1/meters/${m.id}/quantities?start_timestamp=2022-12-31T00:00:00Z&end_timestamp=2023-01-02T00:00:00Z&interval=day`,
    );
    expect(early.body.detail[0].loc).toEqual(['query', 'start_timestamp']);
    const zone = await api('GET', `/v1/meters/${m.id}/quantities?${march}&timezone=Mars/Olympus`);
    expect(zone.body.detail[0].loc).toEqual(['query', 'timezone']);
  });

  it("freezes a billed meter's filter and aggregation; refuses to archive a meter a credit benefit uses", async () => {
    const m = await meter('Billed', { func: 'count' });
    const em = stack.production.environment.billing.orm.em.fork();
    await em.execute(
      `insert into billing.billing_entries (id, organization_id, meter_id, event_id, created_at)
       values (gen_random_uuid(), ?, ?, gen_random_uuid(), now())`,
      [shop.organizationId, m.id],
    );
    const frozen = await api('PATCH', `/v1/meters/${m.id}`, { filter: calls, aggregation: { func: 'count' } });
    expect(frozen.status).toBe(422);
    expect(frozen.body.detail.map((d: { loc: string[]; type: string }) => [d.loc.join('.'), d.type])).toEqual([
      ['body.filter', 'forbidden'],
      ['body.aggregation', 'forbidden'],
    ]);
    expect((await api('PATCH', `/v1/meters/${m.id}`, { name: 'Billed requests' })).status).toBe(200);

    const credited = await meter('Credited', { func: 'count' });
    await em.execute(
      `insert into billing.benefits (id, organization_id, type, description, properties, metadata, created_at)
       values (gen_random_uuid(), ?, 'meter_credit', 'Credits', ?::jsonb, '{}', now())`,
      [shop.organizationId, JSON.stringify({ meter_id: credited.id, units: 100, rollover: false })],
    );
    const archive = await api('PATCH', `/v1/meters/${credited.id}`, { is_archived: true });
    expect(archive.status).toBe(422);
    expect(archive.body.detail[0]).toMatchObject({
      loc: ['body', 'is_archived'],
      msg: 'Cannot archive meter that is still referenced by active benefits',
    });
  });
});

describe('every aggregation', () => {
  it('count, sum, max, min, avg and unique over the filtered events, per day with the total', async () => {
    const cases: [unknown, number[], number][] = [
      [{ func: 'count' }, [2, 1, 1], 4],
      [{ func: 'sum', property: 'tokens' }, [40, 5, 0], 45],
      [{ func: 'max', property: 'tokens' }, [30, 5, 0], 30],
      [{ func: 'min', property: 'tokens' }, [10, 5, 0], 5],
      [{ func: 'avg', property: 'tokens' }, [20, 5, 0], 15],
      [{ func: 'unique', property: 'model' }, [1, 1, 0], 2],
    ];
    for (const [aggregation, days, total] of cases) {
      const m = await meter(`Agg ${JSON.stringify(aggregation)}`, aggregation);
      const q = await quantities(m.id);
      expect([aggregation, q.quantities.map((x: { quantity: number }) => x.quantity), q.total]).toEqual([
        aggregation,
        days,
        total,
      ]);
      expect(q.quantities[0].timestamp).toBe('2028-03-01T00:00:00.000Z');
    }
  });

  it('per customer, by external id, and across customers', async () => {
    const m = await meter('Per customer', { func: 'sum', property: 'tokens' });
    expect((await quantities(m.id, `${march}&external_customer_id=b`)).total).toBe(5);
    expect((await quantities(m.id, `${march}&metadata[model]=gpt-4`)).total).toBe(40);
    const max = await quantities(m.id, `${march}&customer_aggregation_function=max`);
    expect(max.quantities.map((x: { quantity: number }) => x.quantity)).toEqual([40, 5, 0]);
    expect(max.total).toBe(40);
  });

  it("lists a meter's events with the events list's meter_id", async () => {
    const m = await meter('Events of', { func: 'sum', property: 'tokens' });
    const events = await api('GET', `/v1/events/?meter_id=${m.id}&sorting=timestamp`);
    expect(events.body.items.map((e: { metadata: { tokens: number } }) => e.metadata.tokens)).toEqual([10, 30, 5]);
  });
});

describe('another organization', () => {
  it('never sees, lists, counts or changes the meters', async () => {
    const m = await meter('Private', { func: 'count' });
    expect((await api('GET', `/v1/meters/${m.id}`, undefined, other.oat)).status).toBe(404);
    expect((await api('GET', `/v1/meters/${m.id}/quantities?${march}`, undefined, other.oat)).status).toBe(404);
    expect((await api('PATCH', `/v1/meters/${m.id}`, { name: 'Mine' }, other.oat)).status).toBe(404);
    expect((await api('GET', '/v1/meters/', undefined, other.oat)).body.items).toEqual([]);
    expect((await api('GET', `/v1/events/?meter_id=${m.id}`, undefined, other.oat)).status).toBe(404);
  });
});
