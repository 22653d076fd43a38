import pg from 'pg';
import { subscriptionRead } from '../../subgraphs/billing/subscriptions/subscription.read.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';

/**
 * `metadata[k]=v` on `GET /v1/subscriptions/`, for the keys and values that the index's terms
 * (`<organization>:<key as JSON>=<value as JSON>`, hashed past 256 bytes) must keep apart: separators
 * and quotes inside keys and values, non-ASCII text, values long enough to be hashed, and another
 * organization holding the very same metadata.
 */
let stack: TestStack;
let base: string;
let alice: Tenant;
let bob: Tenant;
const ids: Record<string, string> = {};

const LONG = 'g'.repeat(500);
/** 500 control characters: 3,000 bytes once JSON-escaped, more than a GIN key may hold unhashed. */
const ESCAPED = '\u0001'.repeat(500);

beforeAll(async () => {
  stack = await startTestStack('subscriptions_metadata_filter');
  base = stack.production.baseUrl;
  const fx = new BillingFixtures(stack.production);
  alice = await createTenant(stack.production);
  bob = await createTenant(stack.production);
  const mk = async (tenant: Tenant, name: string, metadata: Record<string, string | number | boolean>) => {
    const product = await fx.product(tenant.organizationId);
    const customer = await fx.customer(tenant.organizationId);
    const { id } = await fx.subscription({
      organizationId: tenant.organizationId,
      customerId: customer.id,
      productId: product.product.id,
      priceIds: [product.price.id],
      metadata,
    });
    ids[id] = tenant === alice ? name : `bob:${name}`;
  };
  await mk(alice, 'separators', { 'a=b:c"d': 'x"y=z' });
  await mk(alice, 'shifted', { a: 'b:c"d=x"y=z' });
  await mk(alice, 'unicode', { città: 'café ✓' });
  await mk(alice, 'long', { note: LONG });
  await mk(alice, 'escaped', { note: ESCAPED });
  await mk(alice, 'numbers', { ratio: 1.5, ok: false, n: 7 });
  await mk(bob, 'separators', { 'a=b:c"d': 'x"y=z' });
  await mk(bob, 'long', { note: LONG });
});
afterAll(async () => {
  await stack?.close();
});

async function matches(params: Record<string, string | string[]>, token = alice.oat): Promise<string[]> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    for (const v of Array.isArray(value) ? value : [value]) query.append(`metadata[${key}]`, v);
  const res = await call(base, 'GET', `/v1/subscriptions/?${query}`, { token });
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  expect(res.body.pagination.total_count).toBe(res.body.items.length);
  return res.body.items.map((s: { id: string }) => ids[s.id]).sort();
}

describe('metadata filter terms', () => {
  it.each([
    ['a key and value with the separators and quotes in them', { 'a=b:c"d': 'x"y=z' }, ['separators']],
    ['the same characters split at another place', { a: 'b:c"d=x"y=z' }, ['shifted']],
    ['non-ASCII key and value', { città: 'café ✓' }, ['unicode']],
    ['a 500-character value (hashed term)', { note: LONG }, ['long']],
    ['a value of control characters (hashed after escaping)', { note: ESCAPED }, ['escaped']],
    ['one of several values, hashed or not', { note: [LONG, 'other', ESCAPED] }, ['escaped', 'long']],
    ['a number by its decimal text', { ratio: '1.5' }, ['numbers']],
    ['a boolean', { ok: 'false' }, ['numbers']],
    ['several keys, all of them', { ok: 'false', n: '7' }, ['numbers']],
    ['several keys, one of them missing', { ok: 'false', n: '8' }, []],
  ])('matches %s', async (_label, params, expected) => {
    expect(await matches(params)).toEqual(expected);
  });

  it.each([
    ['a prefix of a long value', { note: LONG.slice(0, 499) }],
    ['the key with the value swapped in', { 'x"y=z': 'a=b:c"d' }],
    ['a string that differs in case', { città: 'CAFÉ ✓' }],
    ['a number that differs', { ratio: '1.50001' }],
  ])('does not match %s', async (_label, params) => {
    expect(await matches(params)).toEqual([]);
  });

  it("never answers another organization's subscriptions with the same metadata", async () => {
    expect(await matches({ 'a=b:c"d': 'x"y=z' }, bob.oat)).toEqual(['bob:separators']);
    expect(await matches({ note: LONG }, bob.oat)).toEqual(['bob:long']);
  });

  it('counts through the tenant-keyed terms index when the organization has many other rows', async () => {
    const em = stack.production.environment.billing.orm.em.fork();
    const { count } = subscriptionRead.statements(
      em,
      { organizationIds: [alice.organizationId], customerId: null },
      { metadata: { note: [LONG] } },
      [{ key: 'started_at', direction: 'desc' }],
      { limit: 10, offset: 0 },
    );
    const client = new pg.Client({
      connectionString: stack.production.environment.billing.orm.config.get('clientUrl') as string,
    });
    await client.connect();
    try {
      await client.query('begin');
      // Enough other rows of the organization (rolled back after) that the planner weighs the index
      // against reading all of them, as it would in a real organization's list.
      await client.query(
        `insert into billing.subscriptions
         select (jsonb_populate_record(null::billing.subscriptions, to_jsonb(s) || jsonb_build_object('id', gen_random_uuid()))).*
           from billing.subscriptions s, generate_series(1, 3000)
          where s.organization_id = $1 and s.metadata ? 'ratio'`,
        [alice.organizationId],
      );
      await client.query('analyze billing.subscriptions');
      const plan = (await client.query(`explain ${count[0]}`, count[1])).rows.map(r => r['QUERY PLAN']).join('\n');
      expect(plan).toContain('Bitmap Index Scan on subscriptions_tenant_metadata_terms_index');
      const { rows } = await client.query(count[0], count[1]);
      expect(Number(rows[0].n)).toBe(1);
      await client.query('rollback');
    } finally {
      await client.end();
    }
  });
});
