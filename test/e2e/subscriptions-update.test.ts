import pg from 'pg';
import { PriceAmountType, RecurringInterval, SubscriptionStatus } from '../../subgraphs/billing/shared/enums.js';
import { ProductPrice } from '../../subgraphs/billing/products/product-price.entity.js';
import { Product } from '../../subgraphs/billing/products/product.entity.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import {
  call,
  createTenant,
  startTestStack,
  type RunningEnvironment,
  type Tenant,
  type TestStack,
} from '../support/stack.js';

/** `PATCH /v1/subscriptions/{id}` through REST → gateway → billing → PostgreSQL (interface §3, §4; polar-api.md §3.4, §9). */
let stack: TestStack;
let env: RunningEnvironment;
let base: string;
let alice: Tenant;
let bob: Tenant;
let fixtures: BillingFixtures;
let customerId: string;
let freeA: { product: Product; price: ProductPrice };
let freeB: { product: Product; price: ProductPrice };
let paid: { product: Product; price: ProductPrice };

beforeAll(async () => {
  stack = await startTestStack('subscriptions_update');
  env = stack.production;
  base = env.baseUrl;
  alice = await createTenant(env);
  bob = await createTenant(env);
  fixtures = new BillingFixtures(env);
  customerId = (await fixtures.customer(alice.organizationId)).id;
  freeA = await fixtures.product(alice.organizationId, { name: 'Free A', amount: 0 });
  freeB = await fixtures.product(alice.organizationId, { name: 'Free B', amount: 0 });
  paid = await fixtures.product(alice.organizationId, { name: 'Pro', amount: 1500 });
});
afterAll(async () => {
  await stack?.close();
});

async function freeSubscription(overrides: Partial<Parameters<BillingFixtures['subscription']>[0]> = {}) {
  return fixtures.subscription({
    organizationId: alice.organizationId,
    customerId,
    productId: freeA.product.id,
    priceIds: [freeA.price.id],
    ...overrides,
  });
}

const patch = (id: string, body: unknown, token = alice.oat) =>
  call(base, 'PATCH', `/v1/subscriptions/${id}`, { token, body });
const get = (id: string) => call(base, 'GET', `/v1/subscriptions/${id}`, { token: alice.oat });

async function eventsOf(subscriptionId: string): Promise<string[]> {
  const rows = await env.environment.billing.orm.em
    .fork()
    .execute<{ type: string }[]>("select type from billing.events where payload->>'id' = ? order by created_at, id", [
      subscriptionId,
    ]);
  return rows.map(r => r.type);
}

const ALREADY_CANCELED = {
  error: 'AlreadyCanceledSubscription',
  detail: 'This subscription is already canceled or will be at the end of the period.',
};

describe('subscriptions:update — SubscriptionUpdateBase', () => {
  it('`{}` is a no-op 200', async () => {
    const s = await freeSubscription();
    const res = await patch(s.id, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: s.id, status: 'active', modified_at: null, product_id: freeA.product.id });
    expect(await eventsOf(s.id)).toEqual([]);
  });

  it('replaces metadata and records subscription.updated in the outbox', async () => {
    const s = await freeSubscription({ metadata: { old: 'x' } });
    const res = await patch(s.id, { metadata: { plan: 'gold', seats: 3, vip: true } });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({ plan: 'gold', seats: 3, vip: true });
    expect(res.body.modified_at).toEqual(expect.any(String));
    expect(await eventsOf(s.id)).toEqual(['subscription.updated']);
  });

  it('changes between free products at once', async () => {
    const s = await freeSubscription();
    const res = await patch(s.id, { product_id: freeB.product.id, proration_behavior: 'invoice' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      product_id: freeB.product.id,
      product: { id: freeB.product.id, name: 'Free B' },
      price_id: freeB.price.id,
      amount: 0,
      pending_update: null,
    });
    expect(res.body.prices.map((p: any) => p.id)).toEqual([freeB.price.id]);
    expect(await eventsOf(s.id)).toEqual(['subscription.updated']);
  });

  it('next_period stores a pending update applied at the period end; `{"pending_update": null}` clears it', async () => {
    const s = await freeSubscription();
    const res = await patch(s.id, { product_id: paid.product.id, proration_behavior: 'next_period' });
    expect(res.status).toBe(200);
    expect(res.body.product_id).toBe(freeA.product.id);
    expect(res.body.pending_update).toEqual({
      id: expect.any(String),
      created_at: expect.any(String),
      modified_at: null,
      applies_at: new Date(s.currentPeriodEnd).toISOString(),
      product_id: paid.product.id,
      seats: null,
    });
    const cleared = await patch(s.id, { pending_update: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.pending_update).toBeNull();
    expect(await eventsOf(s.id)).toEqual(['subscription.updated', 'subscription.updated']);
  });

  it.each(['invoice', 'prorate', undefined])(
    'a paid change with proration %s goes through the charger: 402 PaymentFailed, nothing changed',
    async behavior => {
      const s = await freeSubscription({ metadata: { keep: 'me' } });
      const before = (await get(s.id)).body;
      const res = await patch(s.id, {
        product_id: paid.product.id,
        metadata: { changed: 'yes' },
        ...(behavior ? { proration_behavior: behavior } : {}),
      });
      expect(res.status).toBe(402);
      expect(res.body).toEqual({
        error: 'PaymentFailed',
        detail: 'Payment failed with reason: missing_payment_method.',
      });
      expect((await get(s.id)).body).toEqual(before);
      expect(await eventsOf(s.id)).toEqual([]);
    },
  );

  it('refuses products that are unknown, archived, one-time or of another organization (422)', async () => {
    const s = await freeSubscription();
    const em = env.environment.billing.orm.em.fork();
    const archived = await fixtures.product(alice.organizationId, { amount: 0 });
    await em.nativeUpdate(Product, { id: archived.product.id }, { isArchived: true });
    const oneTime = await fixtures.product(alice.organizationId, { amount: 0, interval: null });
    const foreign = await fixtures.product(bob.organizationId, { amount: 0 });
    for (const [productId, msg] of [
      ['00000000-0000-4000-8000-000000000000', 'Product does not exist.'],
      [archived.product.id, 'Product is archived.'],
      [oneTime.product.id, 'Product is not recurring.'],
      [foreign.product.id, 'Product does not exist.'],
    ]) {
      const res = await patch(s.id, { product_id: productId });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: 'PolarRequestValidationError',
        detail: [{ type: 'value_error', loc: ['body', 'product_id'], msg, input: productId }],
      });
    }
  });

  it('sets a discount and removes it with an explicit null', async () => {
    const s = await freeSubscription();
    const discount = await fixtures.discount(alice.organizationId, 'Ten off');
    const set = await patch(s.id, { discount_id: discount.id });
    expect(set.status).toBe(200);
    expect(set.body.discount_id).toBe(discount.id);
    const removed = await patch(s.id, { discount_id: null });
    expect(removed.status).toBe(200);
    expect(removed.body.discount_id).toBeNull();
    const foreign = await fixtures.discount(bob.organizationId, 'Foreign');
    const refused = await patch(s.id, { discount_id: foreign.id });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({ loc: ['body', 'discount_id'], msg: 'Discount does not exist.' });
  });

  it('trial_end: a past date is 422; a date after the period end starts a trial', async () => {
    const s = await freeSubscription();
    const past = await patch(s.id, { trial_end: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(422);
    expect(past.body.detail[0]).toMatchObject({ type: 'datetime_future', loc: ['body', 'trial_end'] });
    const end = new Date(s.currentPeriodEnd.getTime() + 7 * 86_400_000).toISOString();
    const res = await patch(s.id, { trial_end: end });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'trialing', trial_end: end, current_period_end: end });
    const ended = await patch(s.id, { trial_end: 'now' });
    expect(ended.status).toBe(200);
    expect(ended.body.status).toBe('active');
  });
});

describe('subscriptions:update — other alternatives', () => {
  it('moves the billing period end', async () => {
    const s = await freeSubscription();
    const end = new Date(Date.now() + 60 * 86_400_000).toISOString();
    const res = await patch(s.id, { current_billing_period_end: end });
    expect(res.status).toBe(200);
    expect(res.body.current_period_end).toBe(end);
  });

  it('seats on a subscription without a seat-based price → 400 NotASeatBasedSubscription', async () => {
    const s = await freeSubscription();
    const res = await patch(s.id, { seats: 3 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'NotASeatBasedSubscription',
      detail: `Subscription ${s.id} is not a seat-based subscription.`,
    });
  });

  it('changes seats of a seat-based subscription (free tier: at once; next_period: pending)', async () => {
    const em = env.environment.billing.orm.em.fork();
    const seated = await fixtures.product(alice.organizationId, { amount: 0 });
    await em.nativeUpdate(
      ProductPrice,
      { id: seated.price.id },
      {
        amountType: PriceAmountType.SEAT_BASED,
        priceAmount: null,
        seatTiers: { seat_tier_type: 'volume', tiers: [{ min_seats: 1, max_seats: 10, price_per_seat: 0 }] },
      },
    );
    const s = await freeSubscription({ productId: seated.product.id, priceIds: [seated.price.id] });
    const res = await patch(s.id, { seats: 4 });
    expect(res.status).toBe(200);
    expect(res.body.seats).toBe(4);
    const pending = await patch(s.id, { seats: 6, proration_behavior: 'next_period' });
    expect(pending.body).toMatchObject({ seats: 4, pending_update: { seats: 6, product_id: null } });
    const tooMany = await patch(s.id, { seats: 11 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe('AboveMaximumSeats');
  });

  it('keys of two alternatives in one body → 422 extra_forbidden', async () => {
    const s = await freeSubscription();
    const res = await patch(s.id, { seats: 2, revoke: true });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('RequestValidationError');
    expect(res.body.detail).toEqual([
      { type: 'extra_forbidden', loc: ['body', 'seats'], msg: 'Extra inputs are not permitted', input: 2 },
    ]);
    const mixed = await patch(s.id, { product_id: freeB.product.id, cancel_at_period_end: true });
    expect(mixed.status).toBe(422);
    expect(mixed.body.detail[0]).toMatchObject({ type: 'extra_forbidden', loc: ['body', 'product_id'] });
    expect((await get(s.id)).body.product_id).toBe(freeA.product.id);
  });
});

describe('cancel at period end and uncancel (polar-api.md §9)', () => {
  it('cancels at period end with reason and comment, then refuses updates with 403, then uncancels', async () => {
    const s = await freeSubscription();
    const res = await patch(s.id, {
      cancel_at_period_end: true,
      customer_cancellation_reason: 'too_expensive',
      customer_cancellation_comment: 'pricey',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      canceled_at: expect.any(String),
      ends_at: new Date(s.currentPeriodEnd).toISOString(),
      ended_at: null,
      customer_cancellation_reason: 'too_expensive',
      customer_cancellation_comment: 'pricey',
    });
    // Rule 1: set to cancel at period end → every update and a second cancel are 403.
    for (const body of [
      { metadata: { a: 1 } },
      { product_id: freeB.product.id },
      { cancel_at_period_end: true },
      { pending_update: null },
    ]) {
      const refused = await patch(s.id, body);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(ALREADY_CANCELED);
    }
    // The exception: uncancel undoes the cancellation.
    const uncanceled = await patch(s.id, { cancel_at_period_end: false });
    expect(uncanceled.status).toBe(200);
    expect(uncanceled.body).toMatchObject({
      cancel_at_period_end: false,
      canceled_at: null,
      ends_at: null,
      customer_cancellation_reason: null,
      customer_cancellation_comment: null,
    });
    expect(await eventsOf(s.id)).toEqual([
      'subscription.updated',
      'subscription.canceled',
      'subscription.updated',
      'subscription.uncanceled',
    ]);
  });

  it('uncancel of a subscription not set to cancel → 400 BadRequest', async () => {
    const s = await freeSubscription();
    const res = await patch(s.id, { cancel_at_period_end: false });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'BadRequest', detail: 'Bad request' });
  });

  it('every update of a canceled subscription (uncancel included) → 403 AlreadyCanceledSubscription', async () => {
    const ended = new Date(Date.now() - 86_400_000);
    const s = await freeSubscription({
      status: SubscriptionStatus.CANCELED,
      canceledAt: ended,
      endsAt: ended,
      endedAt: ended,
    });
    for (const body of [
      { metadata: { a: 1 } },
      { product_id: freeB.product.id },
      { cancel_at_period_end: true },
      { cancel_at_period_end: false },
      { revoke: true },
      { seats: 2 },
    ]) {
      const res = await patch(s.id, body);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(ALREADY_CANCELED);
    }
  });
});

describe('rule 2: another update in flight → 409 SubscriptionLocked at once', () => {
  it('answers 409 fast while the advisory lock is held, changes nothing, and works once it is released', async () => {
    const s = await freeSubscription();
    const before = (await get(s.id)).body;
    const client = new pg.Client({ connectionString: env.environment.billing.orm.config.get('clientUrl') });
    await client.connect();
    try {
      await client.query('begin');
      await client.query("select pg_advisory_xact_lock(hashtextextended('subscription:' || $1::text, 0))", [s.id]);
      const started = Date.now();
      const res = await patch(s.id, { metadata: { racing: true } });
      const revoked = await call(base, 'DELETE', `/v1/subscriptions/${s.id}`, { token: alice.oat });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'SubscriptionLocked', detail: 'This subscription is pending an update.' });
      expect(revoked.status).toBe(409);
      expect((await get(s.id)).body).toEqual(before);
    } finally {
      await client.query('rollback');
      await client.end();
    }
    const after = await patch(s.id, { metadata: { racing: true } });
    expect(after.status).toBe(200);
    expect(after.body.metadata).toEqual({ racing: true });
  });

  it('two concurrent updates: one wins, the other is 409 or applies after it (no lost update)', async () => {
    const s = await freeSubscription();
    const results = await Promise.all([
      patch(s.id, { metadata: { a: 1 } }),
      patch(s.id, { discount_id: (await fixtures.discount(alice.organizationId, 'Race')).id }),
    ]);
    expect(results.map(r => r.status).sort()).toEqual(expect.arrayContaining([200]));
    for (const r of results) expect([200, 409]).toContain(r.status);
    const final = (await get(s.id)).body;
    if (results.every(r => r.status === 200)) {
      expect(final.metadata).toEqual({ a: 1 });
      expect(final.discount_id).toEqual(expect.any(String));
    }
  });
});

describe('tenancy and validation', () => {
  it('another organization gets 404; an unknown id is 404', async () => {
    const s = await freeSubscription();
    expect((await patch(s.id, { metadata: { x: 1 } }, bob.oat)).status).toBe(404);
    const unknown = await patch('00000000-0000-4000-8000-000000000000', { metadata: { x: 1 } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
  });

  it('a token without subscriptions:write is refused before the body is read', async () => {
    const s = await freeSubscription();
    const readOnly = await env.admin.createOrganizationAccessToken(alice.organizationId, ['subscriptions:read']);
    const res = await patch(s.id, { metadata: { x: 1 } }, readOnly);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
  });

  it('the same mutation answers GraphQL clients', async () => {
    const s = await freeSubscription();
    const res = await call(base, 'POST', '/graphql', {
      token: alice.pat,
      body: {
        query:
          'mutation($id: ID!) { updateSubscription(id: $id, input: { cancelAtPeriodEnd: true, customerCancellationReason: "unused" }) { id cancelAtPeriodEnd customerCancellationReason customer { id } product { name } } }',
        variables: { id: s.id },
      },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateSubscription).toEqual({
      id: s.id,
      cancelAtPeriodEnd: true,
      customerCancellationReason: 'unused',
      customer: { id: customerId },
      product: { name: 'Free A' },
    });
    const mixed = await call(base, 'POST', '/graphql', {
      token: alice.pat,
      body: {
        query: 'mutation($id: ID!) { updateSubscription(id: $id, input: { seats: 2, revoke: true }) { id } }',
        variables: { id: s.id },
      },
    });
    expect(mixed.body.errors[0].extensions.code).toBe('PolarRequestValidationError');
  });
});

void RecurringInterval;
