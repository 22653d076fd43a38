import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../kit/clock.js';
import { DomainEvent } from '../../subgraphs/billing/events/domain-event.entity.js';
import { PriceAmountType, RecurringInterval } from '../../subgraphs/billing/shared/enums.js';
import { Subscription } from '../../subgraphs/billing/subscriptions/subscription.entity.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/** docs/interface.md#endpoints `subscriptions:create`: free recurring products only, both alternatives, outbox event. */
let stack: TestStack;
let base: string;
let alice: Tenant;
let bob: Tenant;
let fx: BillingFixtures;
const clock = new ManualClock(new Date('2026-01-31T10:00:00.000Z'));
let free: string;
let freePrice: string;
let customerId: string;

beforeAll(async () => {
  stack = await sharedTestStack(clock);
  base = stack.production.baseUrl;
  fx = new BillingFixtures(stack.production);
  alice = await createTenant(stack.production);
  bob = await createTenant(stack.production);
  const product = await fx.product(alice.organizationId, { name: 'Free plan', amount: 0 });
  free = product.product.id;
  freePrice = product.price.id;
  customerId = (await fx.customer(alice.organizationId, { email: 'ann@example.com', externalId: 'ext-ann' })).id;
});

const create = (body: unknown, token = alice.oat) => call(base, 'POST', '/v1/subscriptions/', { token, body });

function expectIssue(res: { status: number; body: any }, loc: (string | number)[], msg?: RegExp) {
  expect(res.status).toBe(422);
  expect(Array.isArray(res.body.detail)).toBe(true);
  const item = res.body.detail.find((d: any) => JSON.stringify(d.loc) === JSON.stringify(loc));
  if (!item) throw new Error(`no 422 item at ${JSON.stringify(loc)}: ${JSON.stringify(res.body)}`);
  if (msg) expect(item.msg).toMatch(msg);
}

describe('subscriptions:create', () => {
  it('subscribes a customer by id: active, period from the clock, no order, and the event in the outbox', async () => {
    const res = await create({ product_id: free, customer_id: customerId, metadata: { source: 'api', n: 1 } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'active',
      product_id: free,
      customer_id: customerId,
      amount: 0,
      currency: 'usd',
      recurring_interval: 'month',
      recurring_interval_count: 1,
      cancel_at_period_end: false,
      canceled_at: null,
      started_at: '2026-01-31T10:00:00.000Z',
      current_period_start: '2026-01-31T10:00:00.000Z',
      // Jan 31 + 1 month: the end of February.
      current_period_end: '2026-02-28T10:00:00.000Z',
      metadata: { source: 'api', n: 1 },
      checkout_id: null,
      discount: null,
      discount_id: null,
      customer: { id: customerId, email: 'ann@example.com' },
      product: { id: free, name: 'Free plan' },
      price_id: freePrice,
      user_id: customerId,
    });
    expect(res.body.prices.map((p: any) => p.id)).toEqual([freePrice]);
    const em = stack.production.environment.billing.orm.em.fork();
    const events = await em.find(DomainEvent, { organizationId: alice.organizationId, type: 'subscription.created' });
    const event = events.find(e => e.payload.id === res.body.id);
    expect(event).toBeDefined();
    expect(event!.payload).toMatchObject({
      id: res.body.id,
      status: 'active',
      customer: { id: customerId },
      product: { id: free },
    });
    // `dispatchedAt` is set once the outbox relay has handed the row to webhooks (test/webhooks/).
    const get = await call(base, 'GET', `/v1/subscriptions/${res.body.id}`, { token: alice.pat });
    expect(get.status).toBe(200);
    expect(get.body).toEqual(res.body);
    // One public shape: the webhook `data` is exactly what the API returns for the same subscription.
    expect(event!.payload).toEqual(get.body);
  });

  it('subscribes a customer by external id', async () => {
    const res = await create({ product_id: free, external_customer_id: 'ext-ann' }, alice.pat);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ customer_id: customerId, customer: { external_id: 'ext-ann' }, metadata: {} });
  });

  it('computes the period from the interval and its count', async () => {
    const yearly = await fx.product(alice.organizationId, {
      interval: RecurringInterval.WEEK,
      count: 2,
      amountType: PriceAmountType.FREE,
    });
    const res = await create({ product_id: yearly.product.id, customer_id: customerId });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      recurring_interval: 'week',
      recurring_interval_count: 2,
      current_period_end: '2026-02-14T10:00:00.000Z',
    });
    // A free price reads as a fixed price of 0, as Polar's (docs/polar/resources.md).
    expect(res.body.prices[0]).toMatchObject({ amount_type: 'fixed', price_amount: 0 });
  });

  it('refuses a paid product with 422 body.product_id', async () => {
    const paid = await fx.product(alice.organizationId, { amount: 1500 });
    expectIssue(
      await create({ product_id: paid.product.id, customer_id: customerId }),
      ['body', 'product_id'],
      /^Product is not free/,
    );
    const pwyw = await fx.product(alice.organizationId, { amountType: PriceAmountType.CUSTOM });
    expectIssue(
      await create({ product_id: pwyw.product.id, customer_id: customerId }),
      ['body', 'product_id'],
      /^Product is not free/,
    );
  });

  it('refuses a one-time product', async () => {
    const once = await fx.product(alice.organizationId, { interval: null });
    expectIssue(
      await create({ product_id: once.product.id, customer_id: customerId }),
      ['body', 'product_id'],
      /not recurring/,
    );
  });

  it('refuses an unknown or foreign customer with 422 "Customer does not exist."', async () => {
    expectIssue(
      await create({ product_id: free, customer_id: randomUUID() }),
      ['body', 'customer_id'],
      /^Customer does not exist\.$/,
    );
    expectIssue(
      await create({ product_id: free, external_customer_id: 'nobody' }),
      ['body', 'external_customer_id'],
      /^Customer does not exist\.$/,
    );
    const bobCustomer = await fx.customer(bob.organizationId, { externalId: 'ext-bob' });
    expectIssue(
      await create({ product_id: free, customer_id: bobCustomer.id }),
      ['body', 'customer_id'],
      /^Customer does not exist\.$/,
    );
    expectIssue(
      await create({ product_id: free, external_customer_id: 'ext-bob' }),
      ['body', 'external_customer_id'],
      /^Customer does not exist\.$/,
    );
  });

  it('refuses a foreign or unknown product, and writes nothing', async () => {
    const em = stack.production.environment.billing.orm.em.fork();
    // This file's two organizations: other files' subscriptions share the worker's stack.
    const ours = { organizationId: { $in: [alice.organizationId, bob.organizationId] } };
    const before = await em.count(Subscription, ours);
    const bobFree = await fx.product(bob.organizationId, { amount: 0 });
    expectIssue(
      await create({ product_id: bobFree.product.id, customer_id: customerId }),
      ['body', 'product_id'],
      /does not exist/,
    );
    expectIssue(
      await create({ product_id: randomUUID(), customer_id: customerId }),
      ['body', 'product_id'],
      /does not exist/,
    );
    // Bob's token cannot subscribe Alice's customer to Alice's product either.
    expectIssue(
      await create({ product_id: free, customer_id: customerId }, bob.oat),
      ['body', 'product_id'],
      /does not exist/,
    );
    expect(await em.fork().count(Subscription, ours)).toBe(before);
    expect(await em.fork().count(DomainEvent, { organizationId: bob.organizationId })).toBe(0);
  });

  it('validates the body in Polar’s shape', async () => {
    expectIssue(await create({ customer_id: customerId }), ['body', 'product_id']);
    expectIssue(await create({ product_id: free }), ['body', 'customer_id']);
    expectIssue(await create({ product_id: 'nope', customer_id: customerId }), ['body', 'product_id']);
    expectIssue(await create({ product_id: free, customer_id: customerId, extra: 1 }), ['body', 'extra']);
    expectIssue(await create({ product_id: free, customer_id: customerId, metadata: { k: '' } }), [
      'body',
      'metadata',
      'k',
    ]);
    const noBody = await call(base, 'POST', '/v1/subscriptions/', { token: alice.oat });
    expect(noBody.status).toBe(422);
  });

  it('requires subscriptions:write', async () => {
    const readOnly = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, [
      'subscriptions:read',
    ]);
    const res = await create({ product_id: free, customer_id: customerId }, readOnly);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
    expect(
      (await call(base, 'POST', '/v1/subscriptions/', { body: { product_id: free, customer_id: customerId } })).status,
    ).toBe(401);
  });

  it('keeps tenants apart: bob never sees alice’s new subscriptions', async () => {
    const res = await create({ product_id: free, customer_id: customerId });
    expect((await call(base, 'GET', `/v1/subscriptions/${res.body.id}`, { token: bob.oat })).status).toBe(404);
    const bobList = await call(base, 'GET', '/v1/subscriptions/', { token: bob.oat });
    expect(bobList.body.items).toEqual([]);
    // The sandbox is another database: the production token is not even valid there.
    expect(
      (await call(stack.sandbox.baseUrl, 'GET', `/v1/subscriptions/${res.body.id}`, { token: alice.oat })).status,
    ).toBe(401);
  });
});
