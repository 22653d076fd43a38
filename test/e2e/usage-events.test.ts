import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../kit/clock.js';
import { eventually } from '../support/sdk-walk/write-seed.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';

/**
 * Usage events through the public API (docs/usage-events.md): the ingest (all or nothing, 422 at the index's loc,
 * dedupe by external id across concurrent batches, back-dated events, unknown external customers), the list with
 * Polar's filters, names, event types, and another organization's events never visible.
 */
const wall = new ManualClock(new Date('2028-04-01T08:00:00.000Z'));
let stack: TestStack;
let base: string;
let shop: Tenant;
let other: Tenant;
let ada: { id: string; external_id: string };

// A stack of its own: the partitions test reads which monthly partitions the database has, which any file's
// clock adds to on a shared stack (docs/testing.md#one-stack-per-worker).
beforeAll(async () => {
  stack = await startTestStack('usage_events', wall);
  base = stack.production.baseUrl;
  shop = await createTenant(stack.production);
  other = await createTenant(stack.production);
  const res = await api('POST', '/v1/customers/', { email: 'ada@example.com', external_id: 'user-ada' });
  ada = res.body;
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

function api(method: string, path: string, body?: unknown, token = shop.oat) {
  return call(base, method, path, { token, body });
}
const ingest = (events: unknown[], token = shop.oat) => api('POST', '/v1/events/ingest', { events }, token);
const count = async (query = '') => (await api('GET', `/v1/events/?limit=1${query}`)).body.pagination.total_count;

describe('ingest', () => {
  it('takes customer_id or external_customer_id; the timestamp defaults to now; the list shows them', async () => {
    const res = await ingest([
      { name: 'api.call', customer_id: ada.id, metadata: { tokens: 12, route: '/chat' } },
      {
        name: 'llm.completion',
        external_customer_id: 'user-ada',
        timestamp: '2028-03-31T10:00:00Z',
        metadata: {
          _llm: { vendor: 'openai', model: 'gpt-4o', input_tokens: 10, output_tokens: 5, total_tokens: 15 },
          _cost: { amount: '0.0125', currency: 'usd' },
        },
      },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ inserted: 2, duplicates: 0 });

    const list = await api('GET', `/v1/events/?customer_id=${ada.id}&source=user`);
    expect(list.status).toBe(200);
    expect(list.body.pagination.total_count).toBe(2);
    const [call, llm] = list.body.items;
    expect(call).toMatchObject({
      name: 'api.call',
      source: 'user',
      label: 'api.call',
      timestamp: '2028-04-01T08:00:00.000Z',
      organization_id: shop.organizationId,
      customer_id: ada.id,
      customer: { id: ada.id, external_id: 'user-ada' },
      external_customer_id: null,
      child_count: 0,
      parent_id: null,
      metadata: { tokens: 12, route: '/chat' },
    });
    expect(llm).toMatchObject({
      customer_id: null,
      external_customer_id: 'user-ada',
      customer: { id: ada.id },
      metadata: { _cost: { amount: '0.0125', currency: 'usd' }, _llm: { model: 'gpt-4o', total_tokens: 15 } },
    });
    const got = await api('GET', `/v1/events/${llm.id}`);
    expect(got.body).toEqual(llm);
  });

  it('one invalid event rejects the batch: 422 at each bad index, nothing inserted', async () => {
    const before = await count();
    // The body's shape first (as Polar's schema), then what the service checks, each at its index.
    const shape = await ingest([
      { name: 'ok', external_customer_id: 'x' },
      { name: 'n'.repeat(129), external_customer_id: 'x' },
      { name: 'typo', external_customer_id: 'x', colour: 'red' },
    ]);
    expect(shape.status).toBe(422);
    expect(shape.body.detail.map((d: { loc: unknown[] }) => d.loc.join('.'))).toEqual([
      'body.events.1.name',
      'body.events.2.colour',
    ]);
    const res = await ingest([
      { name: 'ok', external_customer_id: 'x' },
      { name: 'future', external_customer_id: 'x', timestamp: '2028-04-01T08:00:01Z' },
      { name: 'stranger', customer_id: randomUUID() },
      { name: 'bad cost', external_customer_id: 'x', metadata: { _cost: { amount: 'lots', currency: 'usd' } } },
      { name: 'nobody' },
      { name: 'bad llm', external_customer_id: 'x', metadata: { _llm: { vendor: 'v', model: 'm' } } },
    ]);
    expect(res.status).toBe(422);
    const locs = res.body.detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual([
      'body.events.1.timestamp',
      'body.events.2.customer_id',
      'body.events.3.metadata._cost.amount',
      'body.events.4.customer_id',
      'body.events.5.metadata._llm.input_tokens',
      'body.events.5.metadata._llm.output_tokens',
      'body.events.5.metadata._llm.total_tokens',
    ]);
    expect(await count()).toBe(before);
  });

  it('deduplicates by external_id across concurrent batches; events without one never dedupe', async () => {
    const shared = Array.from({ length: 20 }, (_, i) => ({
      name: 'dedupe',
      external_customer_id: 'user-ada',
      external_id: `shared-${i}`,
    }));
    const batches = Array.from({ length: 5 }, (_, b) => [
      ...shared,
      { name: 'dedupe', external_customer_id: 'user-ada' },
      { name: 'dedupe', external_customer_id: 'user-ada', external_id: `own-${b}` },
    ]);
    const answers = await Promise.all(batches.map(batch => ingest(batch)));
    expect(answers.map(a => a.status)).toEqual([200, 200, 200, 200, 200]);
    const inserted = answers.reduce((n, a) => n + a.body.inserted, 0);
    const duplicates = answers.reduce((n, a) => n + a.body.duplicates, 0);
    expect(inserted).toBe(20 + 5 + 5);
    expect(duplicates).toBe(4 * 20);
    expect(await count('&name=dedupe')).toBe(30);
    // A later batch repeating a key, and a key twice in one batch.
    const again = await ingest([
      { name: 'dedupe', external_customer_id: 'user-ada', external_id: 'shared-3' },
      { name: 'dedupe', external_customer_id: 'user-ada', external_id: 'twice' },
      { name: 'dedupe', external_customer_id: 'user-ada', external_id: 'twice' },
    ]);
    expect(again.body).toEqual({ inserted: 1, duplicates: 2 });
  });

  it('takes a back-dated event (its month gets its partition) and the time filters find it', async () => {
    const res = await ingest([{ name: 'late', external_customer_id: 'user-ada', timestamp: '2026-07-15T12:00:00Z' }]);
    expect(res.body).toEqual({ inserted: 1, duplicates: 0 });
    const found = await api(
      'GET',
      '/v1/events/?start_timestamp=2026-07-01T00:00:00Z&end_timestamp=2026-08-01T00:00:00Z',
    );
    expect(found.body.items.map((e: { name: string; timestamp: string }) => [e.name, e.timestamp])).toEqual([
      ['late', '2026-07-15T12:00:00.000Z'],
    ]);
  });

  it('accepts an unknown external customer; the event finds the customer once it exists', async () => {
    await ingest([{ name: 'early.bird', external_customer_id: 'user-bob' }]);
    const [event] = (await api('GET', '/v1/events/?name=early.bird')).body.items;
    expect(event).toMatchObject({ external_customer_id: 'user-bob', customer_id: null, customer: null });
    const bob = (await api('POST', '/v1/customers/', { email: 'bob@example.com', external_id: 'user-bob' })).body;
    expect((await api('GET', `/v1/events/${event.id}`)).body.customer).toMatchObject({ id: bob.id });
    expect(await count(`&customer_id=${bob.id}&source=user`)).toBe(1);
  });

  it('links children to a parent named by external id, in the same batch or an earlier one', async () => {
    await ingest([
      { name: 'trace', external_customer_id: 'user-ada', external_id: 'root-1' },
      { name: 'span', external_customer_id: 'user-ada', external_id: 'child-1', parent_id: 'root-1' },
    ]);
    await ingest([{ name: 'span', external_customer_id: 'user-ada', parent_id: 'child-1' }]);
    const [root] = (await api('GET', '/v1/events/?name=trace')).body.items;
    expect(root.child_count).toBe(1);
    const children = await api('GET', `/v1/events/?parent_id=${root.id}`);
    expect(children.body.items).toHaveLength(1);
    const tree = await api('GET', `/v1/events/?parent_id=${root.id}&depth=2`);
    expect(tree.body.items).toHaveLength(2);
    const roots = await api('GET', '/v1/events/?name=trace&name=span&depth=0');
    expect(roots.body.items.map((e: { name: string }) => e.name)).toEqual(['trace']);
  });

  it('filters by a meter-style filter, metadata and source', async () => {
    const filter = JSON.stringify({
      conjunction: 'and',
      clauses: [{ property: 'tokens', operator: 'gte', value: 10 }],
    });
    const res = await api('GET', `/v1/events/?filter=${encodeURIComponent(filter)}`);
    expect(res.body.items.map((e: { name: string }) => e.name)).toEqual(['api.call']);
    expect(await count('&metadata[route]=/chat')).toBe(1);
    expect(await count('&source=system&name=benefit.granted')).toBe(0);
    const bad = await api('GET', `/v1/events/?filter=${encodeURIComponent('{"conjunction":"xor","clauses":[]}')}`);
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'filter', 'conjunction']);
  });
});

describe('system events', () => {
  it("a customer's creation is in the stream, recorded with the customer (Polar's customer.created)", async () => {
    const res = await api('GET', `/v1/events/?source=system&customer_id=${ada.id}`);
    expect(res.body.items).toEqual([
      expect.objectContaining({
        name: 'customer.created',
        source: 'system',
        label: 'Customer Created',
        customer_id: ada.id,
        metadata: {
          customer_id: ada.id,
          customer_email: 'ada@example.com',
          customer_name: null,
          customer_external_id: 'user-ada',
        },
      }),
    ]);
  });
});

describe('names and event types', () => {
  it('lists names with counts; relabelling a type relabels its events', async () => {
    const names = await api('GET', '/v1/events/names?sorting=name&limit=100');
    expect(names.status).toBe(200);
    const dedupe = names.body.items.find((n: { name: string }) => n.name === 'dedupe');
    expect(dedupe).toMatchObject({ label: 'dedupe', source: 'user', occurrences: 31 });

    const types = await api('GET', '/v1/event-types/?query=api&limit=100');
    const [type] = types.body.items;
    expect(type).toMatchObject({ name: 'api.call', label: 'api.call', occurrences: 1, source: 'user' });
    const patched = await api('PATCH', `/v1/event-types/${type.id}`, {
      label: 'API call',
      label_property_selector: 'route',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: type.id, label: 'API call', label_property_selector: 'route' });
    const [event] = (await api('GET', '/v1/events/?name=api.call')).body.items;
    expect(event.label).toBe('/chat');
  });
});

describe('GraphQL', () => {
  it('ingestEvents takes the body as one `batch`, and the deprecated typed `events`, read the same way', async () => {
    const mutation = `mutation($batch: EventBatch, $events: [EventCreateInput!]) {
      ingestEvents(batch: $batch, events: $events) { inserted duplicates } }`;
    const gql = (variables: Record<string, unknown>) =>
      call(base, 'POST', '/graphql', { token: shop.oat, body: { query: mutation, variables } });
    const batch = await gql({ batch: { events: [{ name: 'gql.batch', external_customer_id: 'user-ada' }] } });
    expect(batch.body).toEqual({ data: { ingestEvents: { inserted: 1, duplicates: 0 } } });
    const typed = await gql({
      events: [
        { name: 'gql.typed', externalCustomerId: 'user-ada', customerId: null, timestamp: '2028-03-01T00:00:00Z' },
      ],
    });
    expect(typed.body.data).toEqual({ ingestEvents: { inserted: 1, duplicates: 0 } });
    const [event] = (await api('GET', '/v1/events/?name=gql.typed')).body.items;
    expect(event).toMatchObject({ external_customer_id: 'user-ada', timestamp: '2028-03-01T00:00:00.000Z' });
    // The same items as the REST route's 422, and nothing inserted.
    const before = await count();
    const bad = await gql({
      batch: {
        events: [
          { name: 'ok', external_customer_id: 'x' },
          { name: 'x', colour: 1 },
        ],
      },
    });
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: 'RequestValidationError',
      details: [{ type: 'extra_forbidden', loc: ['body', 'events', 1, 'colour'] }],
    });
    expect(await count()).toBe(before);
  });
});

describe('another organization', () => {
  it('never sees, names or writes into the events', async () => {
    const [event] = (await api('GET', '/v1/events/?name=api.call')).body.items;
    expect((await api('GET', `/v1/events/${event.id}`, undefined, other.oat)).status).toBe(404);
    expect((await api('GET', '/v1/events/', undefined, other.oat)).body.pagination.total_count).toBe(0);
    expect((await api('GET', '/v1/events/names', undefined, other.oat)).body.items).toEqual([]);
    expect((await api('GET', '/v1/event-types/', undefined, other.oat)).body.items).toEqual([]);
    const types = (await api('GET', '/v1/event-types/?limit=1')).body.items;
    const relabel = await api('PATCH', `/v1/event-types/${types[0].id}`, { label: 'mine' }, other.oat);
    expect(relabel.status).toBe(404);
    const foreign = await ingest([{ name: 'steal', customer_id: ada.id }], other.oat);
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail[0].loc).toEqual(['body', 'events', 0, 'customer_id']);
    // A user token naming an organization it is not a member of.
    const user = await ingest(
      [{ name: 'x', external_customer_id: 'y', organization_id: shop.organizationId }],
      other.pat,
    );
    expect(user.status).toBe(422);
    expect(user.body.detail[0]).toMatchObject({
      loc: ['body', 'events', 0, 'organization_id'],
      msg: 'Organization not found.',
    });
    // An organization token may not name one.
    const named = await ingest([{ name: 'x', external_customer_id: 'y', organization_id: shop.organizationId }]);
    expect(named.body.detail[0].type).toBe('organization_token');
  });
});

describe('partitions made ahead', () => {
  it("makes this month's partition and the next two by the clock, and the new ones when a month turns", async () => {
    const db = stack.production.environment.billing.orm.em.fork().getConnection();
    const exists = async (month: string) => {
      const [row] = await db.execute(`select to_regclass(?) is not null as made`, [`billing.usage_events_${month}`]);
      return row.made as boolean;
    };
    // Made at start, before any event of those months.
    expect([await exists('2028_04'), await exists('2028_05'), await exists('2028_06')]).toEqual([true, true, true]);
    expect(await exists('2028_08')).toBe(false);
    wall.set(new Date('2028-06-15T00:00:00.000Z'));
    await eventually(async () => ((await exists('2028_08')) ? true : undefined));
    expect(await exists('2028_07')).toBe(true);
  });

  it("gives every partition the xid index, built concurrently, so the parent's index is valid", async () => {
    const db = stack.production.environment.billing.orm.em.fork().getConnection();
    const valid = async () => {
      const [row] = await db.execute(
        `select indisvalid as valid from pg_index where indexrelid = 'billing.usage_events_xid'::regclass`,
      );
      return row.valid ? true : undefined;
    };
    expect(await eventually(valid)).toBe(true);
    const [unindexed] = await db.execute(
      `select count(*)::int as n from pg_inherits i where i.inhparent = 'billing.usage_events'::regclass
       and not exists (select 1 from pg_inherits a join pg_index x on x.indexrelid = a.inhrelid
                       where a.inhparent = 'billing.usage_events_xid'::regclass and x.indrelid = i.inhrelid)`,
    );
    expect(unindexed.n).toBe(0);
  });
});
