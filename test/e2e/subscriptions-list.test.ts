import { randomUUID } from 'node:crypto';
import { CustomerCancellationReason, SubscriptionStatus } from '../../subgraphs/billing/shared/enums.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/** docs/interface.md#endpoints `subscriptions:list` through the public REST API: every query parameter, single and repeated. */
let stack: TestStack;
let base: string;
let alice: Tenant;
let bob: Tenant;
let fx: BillingFixtures;
const ids: Record<string, string> = {};
let bobSubscription: string;

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000);

/**
 * Alice's organization: six subscriptions with distinct values for every filter and sort key.
 * s1..s6 started on days 1..6 (so the default `-started_at` order is s6..s1).
 */
beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  fx = new BillingFixtures(stack.production);
  alice = await createTenant(stack.production);
  bob = await createTenant(stack.production);
  const basic = await fx.product(alice.organizationId, { name: 'Basic' });
  const pro = await fx.product(alice.organizationId, { name: 'Pro', amount: 2000 });
  const ann = await fx.customer(alice.organizationId, { email: 'ann@example.com', externalId: 'ext-ann' });
  const zed = await fx.customer(alice.organizationId, { email: 'zed@example.com', externalId: 'ext-zed' });
  const bea = await fx.customer(alice.organizationId, { email: 'bea@example.com' });
  const tenOff = await fx.discount(alice.organizationId, 'Ten off');
  const aaaOff = await fx.discount(alice.organizationId, 'Aaa off');
  Object.assign(ids, {
    basic: basic.product.id,
    pro: pro.product.id,
    ann: ann.id,
    zed: zed.id,
    bea: bea.id,
    tenOff: tenOff.id,
    aaaOff: aaaOff.id,
  });
  const mk = (n: number, fields: Partial<Parameters<BillingFixtures['subscription']>[0]>) =>
    fx.subscription({
      organizationId: alice.organizationId,
      customerId: ann.id,
      productId: basic.product.id,
      priceIds: [basic.price.id],
      startedAt: day(n),
      ...fields,
    });
  ids.s1 = (await mk(1, { amount: 500, metadata: { plan: 'gold', seats: 5 }, currentPeriodEnd: day(40) })).id;
  ids.s2 = (
    await mk(2, {
      customerId: zed.id,
      productId: pro.product.id,
      priceIds: [pro.price.id],
      amount: 2000,
      discountId: tenOff.id,
      metadata: { plan: 'silver' },
      currentPeriodEnd: day(35),
    })
  ).id;
  ids.s3 = (
    await mk(3, {
      status: SubscriptionStatus.CANCELED,
      canceledAt: day(10),
      endedAt: day(10),
      endsAt: day(10),
      reason: CustomerCancellationReason.TOO_EXPENSIVE,
      amount: 100,
      metadata: { plan: 'gold', beta: true },
    })
  ).id;
  ids.s4 = (
    await mk(4, { customerId: bea.id, status: SubscriptionStatus.TRIALING, amount: 300, discountId: aaaOff.id })
  ).id;
  ids.s5 = (
    await mk(5, {
      customerId: zed.id,
      cancelAtPeriodEnd: true,
      canceledAt: day(20),
      endsAt: day(34),
      reason: CustomerCancellationReason.UNUSED,
      amount: 900,
    })
  ).id;
  ids.s6 = (await mk(6, { status: SubscriptionStatus.PAST_DUE, amount: 50, metadata: { plan: 'bronze' } })).id;
  const bobProduct = await fx.product(bob.organizationId);
  const bobCustomer = await fx.customer(bob.organizationId, { externalId: 'ext-ann' });
  bobSubscription = (
    await fx.subscription({
      organizationId: bob.organizationId,
      customerId: bobCustomer.id,
      productId: bobProduct.product.id,
      priceIds: [bobProduct.price.id],
      startedAt: day(3),
    })
  ).id;
});

const name = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? id;
async function list(query: string, token = alice.oat) {
  const res = await call(base, 'GET', `/v1/subscriptions/${query ? `?${query}` : ''}`, { token });
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  return { names: res.body.items.map((s: any) => name(s.id)) as string[], body: res.body };
}

describe('subscriptions:list', () => {
  it('lists the organization’s subscriptions, newest start first, with the full shape', async () => {
    const { names, body } = await list('');
    expect(names).toEqual(['s6', 's5', 's4', 's3', 's2', 's1']);
    expect(body.pagination).toEqual({ total_count: 6, max_page: 1 });
    const s2 = body.items.find((s: any) => s.id === ids.s2);
    for (const key of [
      'created_at',
      'modified_at',
      'id',
      'amount',
      'currency',
      'recurring_interval',
      'recurring_interval_count',
      'status',
      'current_period_start',
      'current_period_end',
      'current_meter_period_start',
      'current_meter_period_end',
      'trial_start',
      'trial_end',
      'cancel_at_period_end',
      'canceled_at',
      'started_at',
      'ends_at',
      'ended_at',
      'past_due_at',
      'pause_at_period_end',
      'paused_at',
      'resumes_at',
      'customer_id',
      'product_id',
      'discount_id',
      'checkout_id',
      'seats',
      'customer_cancellation_reason',
      'customer_cancellation_comment',
      'metadata',
      'custom_field_data',
      'customer',
      'product',
      'discount',
      'prices',
      'meters',
      'pending_update',
      'price_id',
      'price',
      'user_id',
      'user',
    ])
      expect(s2).toHaveProperty(key);
    expect(s2).toMatchObject({
      amount: 2000,
      currency: 'usd',
      status: 'active',
      customer_id: ids.zed,
      product_id: ids.pro,
      discount_id: ids.tenOff,
      customer: { id: ids.zed, email: 'zed@example.com', external_id: 'ext-zed' },
      product: {
        id: ids.pro,
        name: 'Pro',
        prices: [expect.objectContaining({ amount_type: 'fixed', price_amount: 2000 })],
      },
      prices: [expect.objectContaining({ amount_type: 'fixed', price_amount: 2000 })],
      meters: [],
      custom_field_data: {},
      pending_update: null,
      metadata: { plan: 'silver' },
      user_id: ids.zed,
      user: { id: ids.zed, email: 'zed@example.com' },
    });
    expect(s2.price_id).toBe(s2.prices[0].id);
    expect(s2.price).toEqual(s2.prices[0]);
    expect(s2.started_at).toBe(day(2).toISOString());
    expect(s2.prices[0]).not.toHaveProperty('minimum_amount');
    expect(s2.discount).toMatchObject({
      id: ids.tenOff,
      name: 'Ten off',
      type: 'percentage',
      duration: 'forever',
      basis_points: 1000,
    });
    expect(s2.discount).not.toHaveProperty('products');
    expect(body.items.find((s: any) => s.id === ids.s1).discount).toBeNull();
  });

  it('never lists another organization’s subscriptions', async () => {
    expect((await list('', bob.oat)).names).toEqual([bobSubscription]);
    expect((await list(`organization_id=${bob.organizationId}`)).names).toEqual([]);
    expect((await list(`organization_id=${alice.organizationId}`, alice.pat)).names).toHaveLength(6);
    expect(
      (await list(`organization_id=${alice.organizationId}&organization_id=${bob.organizationId}`, alice.pat)).names,
    ).toHaveLength(6);
  });

  it.each([
    ['product_id', () => `product_id=${ids.pro}`, ['s2']],
    [
      'product_id repeated',
      () => `product_id=${ids.pro}&product_id=${ids.basic}`,
      ['s6', 's5', 's4', 's3', 's2', 's1'],
    ],
    ['customer_id', () => `customer_id=${ids.zed}`, ['s5', 's2']],
    ['customer_id repeated', () => `customer_id=${ids.zed}&customer_id=${ids.bea}`, ['s5', 's4', 's2']],
    ['external_customer_id', () => 'external_customer_id=ext-zed', ['s5', 's2']],
    [
      'external_customer_id repeated',
      () => 'external_customer_id=ext-zed&external_customer_id=ext-ann',
      ['s6', 's5', 's3', 's2', 's1'],
    ],
    ['discount_id', () => `discount_id=${ids.tenOff}`, ['s2']],
    ['discount_id repeated', () => `discount_id=${ids.tenOff}&discount_id=${ids.aaaOff}`, ['s4', 's2']],
    ['active=true (deprecated)', () => 'active=true', ['s5', 's4', 's2', 's1']],
    ['active=false (deprecated)', () => 'active=false', ['s6', 's3']],
    ['status', () => 'status=trialing', ['s4']],
    ['status repeated', () => 'status=canceled&status=past_due', ['s6', 's3']],
    ['cancel_at_period_end=true', () => 'cancel_at_period_end=true', ['s5']],
    ['cancel_at_period_end=false', () => 'cancel_at_period_end=false', ['s6', 's4', 's3', 's2', 's1']],
    ['customer_cancellation_reason', () => 'customer_cancellation_reason=unused', ['s5']],
    [
      'customer_cancellation_reason repeated',
      () => 'customer_cancellation_reason=unused&customer_cancellation_reason=too_expensive',
      ['s5', 's3'],
    ],
    ['canceled_at_after (inclusive)', () => `canceled_at_after=${day(20).toISOString()}`, ['s5']],
    ['canceled_at_before (inclusive)', () => `canceled_at_before=${day(10).toISOString()}`, ['s3']],
    [
      'canceled_at both bounds (inclusive)',
      () => `canceled_at_after=${day(10).toISOString()}&canceled_at_before=${day(20).toISOString()}`,
      ['s5', 's3'],
    ],
    ['canceled_at without offset (UTC)', () => 'canceled_at_after=2026-01-21T00:00:00', ['s5']],
    ['metadata', () => 'metadata[plan]=gold', ['s3', 's1']],
    ['metadata repeated values = OR', () => 'metadata[plan]=gold&metadata[plan]=bronze', ['s6', 's3', 's1']],
    ['metadata several keys = AND', () => 'metadata[plan]=gold&metadata[beta]=true', ['s3']],
    ['metadata numeric value', () => 'metadata[seats]=5', ['s1']],
    ['metadata no match', () => 'metadata[plan]=platinum', []],
    ['filters combined', () => `status=active&customer_id=${ids.zed}`, ['s5', 's2']],
  ])('filters by %s', async (_label, query, expected) => {
    expect((await list(query())).names).toEqual(expected);
  });

  it.each([
    ['started_at', ['s1', 's2', 's3', 's4', 's5', 's6']],
    ['-started_at', ['s6', 's5', 's4', 's3', 's2', 's1']],
    ['amount', ['s6', 's3', 's4', 's1', 's5', 's2']],
    ['-amount', ['s2', 's5', 's1', 's4', 's3', 's6']],
    ['status&sorting=-amount', ['s2', 's5', 's1', 's3', 's6', 's4']],
    ['customer&sorting=started_at', ['s1', 's3', 's6', 's4', 's2', 's5']],
    ['-product&sorting=started_at', ['s2', 's1', 's3', 's4', 's5', 's6']],
    ['current_period_end&sorting=started_at', null],
    ['ends_at&sorting=started_at', null],
    ['ended_at&sorting=started_at', null],
    ['discount&sorting=started_at', ['s4', 's2', 's1', 's3', 's5', 's6']],
  ])('sorts by %s', async (sorting, expected) => {
    const { names } = await list(`sorting=${sorting}`);
    expect(names).toHaveLength(6);
    if (expected) expect(names).toEqual(expected);
  });

  it('pages with page/limit, clamps limit to 100 and counts exactly', async () => {
    const p1 = await list('limit=4');
    expect(p1.names).toEqual(['s6', 's5', 's4', 's3']);
    expect(p1.body.pagination).toEqual({ total_count: 6, max_page: 2 });
    const p2 = await list('limit=4&page=2');
    expect(p2.names).toEqual(['s2', 's1']);
    expect(p2.body.pagination).toEqual({ total_count: 6, max_page: 2 });
    const beyond = await list('limit=4&page=5');
    expect(beyond.names).toEqual([]);
    expect(beyond.body.pagination).toEqual({ total_count: 6, max_page: 2 });
    const clamped = await list('limit=1000');
    expect(clamped.body.pagination).toEqual({ total_count: 6, max_page: 1 });
    const full = await list('limit=6');
    expect(full.body.pagination).toEqual({ total_count: 6, max_page: 1 });
    const defaults = await list('');
    expect(defaults.body.items).toHaveLength(6);
  });

  it.each([
    ['page=0', 'page', 'greater_than'],
    ['limit=0', 'limit', 'greater_than'],
    ['page=x', 'page', undefined],
    ['sorting=nope', 'sorting', 'enum'],
    ['sorting=-nope', 'sorting', 'enum'],
    ['status=bogus', 'status', 'enum'],
    ['customer_cancellation_reason=meh', 'customer_cancellation_reason', 'enum'],
    ['product_id=not-a-uuid', 'product_id', 'uuid_parsing'],
    ['organization_id=123', 'organization_id', 'uuid_parsing'],
    ['customer_id=zzz', 'customer_id', 'uuid_parsing'],
    ['discount_id=zzz', 'discount_id', 'uuid_parsing'],
    ['active=maybe', 'active', undefined],
    ['cancel_at_period_end=perhaps', 'cancel_at_period_end', undefined],
    ['canceled_at_after=yesterday', 'canceled_at_after', undefined],
    ['canceled_at_before=2026-13-45T00:00:00Z', 'canceled_at_before', undefined],
  ])('answers 422 in Polar’s shape for %s', async (query, field, type) => {
    const res = await call(base, 'GET', `/v1/subscriptions/?${query}`, { token: alice.oat });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/RequestValidationError$/);
    expect(Array.isArray(res.body.detail)).toBe(true);
    const item = res.body.detail.find((d: any) => d.loc[0] === 'query' && d.loc[1] === field);
    expect(item).toBeDefined();
    expect(item).toEqual(
      expect.objectContaining({ type: expect.any(String), msg: expect.any(String), loc: expect.any(Array) }),
    );
    if (type) expect(item.type).toBe(type);
  });

  it('requires subscriptions:read (or :write) and an organization or user', async () => {
    expect((await call(base, 'GET', '/v1/subscriptions/')).status).toBe(401);
    const limited = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, ['products:read']);
    const res = await call(base, 'GET', '/v1/subscriptions/', { token: limited });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
    const readOnly = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, [
      'subscriptions:read',
    ]);
    expect((await call(base, 'GET', '/v1/subscriptions/', { token: readOnly })).status).toBe(200);
  });
});

describe('subscriptions:get', () => {
  it('returns one subscription; another tenant’s or an absent id is 404', async () => {
    const res = await call(base, 'GET', `/v1/subscriptions/${ids.s3}`, { token: alice.oat });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: ids.s3,
      status: 'canceled',
      customer_cancellation_reason: 'too_expensive',
      canceled_at: day(10).toISOString(),
    });
    for (const [token, id] of [
      [bob.oat, ids.s3],
      [alice.oat, bobSubscription],
      [alice.oat, randomUUID()],
    ]) {
      const missing = await call(base, 'GET', `/v1/subscriptions/${id}`, { token });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    }
    const bad = await call(base, 'GET', '/v1/subscriptions/not-a-uuid', { token: alice.oat });
    expect(bad.status).toBe(422);
  });
});

describe('exact totals', () => {
  // Runs last: it changes rows. Full pages force the count path: counters for organization/status/
  // active/cancel_at_period_end filters, count(*) for any other filter; both must agree with the rows.
  const total = async (query: string) => (await list(`limit=1&${query}`)).body.pagination.total_count as number;

  it('stays exact through inserts, updates and deletes', async () => {
    expect(await total('')).toBe(6);
    expect(await total('status=active')).toBe(3);
    expect(await total('active=true')).toBe(4);
    expect(await total('active=false&cancel_at_period_end=false')).toBe(2);
    expect(await total(`status=active&product_id=${ids.basic}`)).toBe(2);
    const em = stack.production.environment.billing.orm.em.fork();
    const { Subscription } = await import('../../subgraphs/billing/subscriptions/subscription.entity.js');
    const s1 = await em.findOneOrFail(Subscription, ids.s1);
    s1.status = SubscriptionStatus.CANCELED;
    await em.flush();
    expect(await total('status=active')).toBe(2);
    expect(await total('status=canceled')).toBe(2);
    expect(await total('active=true')).toBe(3);
    await em.nativeUpdate(Subscription, { organizationId: alice.organizationId }, { cancelAtPeriodEnd: true });
    expect(await total('cancel_at_period_end=true')).toBe(6);
    expect(await total('cancel_at_period_end=false')).toBe(0);
    await em.nativeDelete(Subscription, { id: ids.s6 });
    expect(await total('')).toBe(5);
    expect(await total('status=past_due')).toBe(0);
    expect(await total(`status=canceled&customer_id=${ids.ann}`)).toBe(2);
    expect((await list('limit=1', bob.oat)).body.pagination.total_count).toBe(1);
  });
});
