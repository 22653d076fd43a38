import { PriceAmountType } from '../../subgraphs/billing/shared/enums.js';
import { ProductPrice } from '../../subgraphs/billing/products/product-price.entity.js';
import { Product } from '../../subgraphs/billing/products/product.entity.js';
import {
  env,
  alice,
  bob,
  fixtures,
  freeA,
  freeB,
  paid,
  freeSubscription,
  patch,
  get,
  eventsOf,
  useSubscriptionsUpdateStack,
} from './support/subscriptions-update.js';

/** `PATCH /v1/subscriptions/{id}` through REST → gateway → billing → PostgreSQL (docs/interface.md#subscription-changes, docs/interface.md#endpoints; docs/polar/resources.md#subscription, docs/polar/subscription-lifecycle.md). */
useSubscriptionsUpdateStack();

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
      units: null,
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
