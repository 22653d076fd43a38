import { SubscriptionStatus } from '../../subgraphs/billing/shared/enums.js';
import {
  freeB,
  freeSubscription,
  patch,
  eventsOf,
  ALREADY_CANCELED,
  useSubscriptionsUpdateStack,
} from './support/subscriptions-update.js';

/** `PATCH /v1/subscriptions/{id}` through REST → gateway → billing → PostgreSQL (docs/interface.md#subscription-changes, docs/interface.md#endpoints; docs/polar/resources.md#subscription, docs/polar/subscription-lifecycle.md). */
useSubscriptionsUpdateStack();

describe('cancel at period end and uncancel (docs/polar/subscription-lifecycle.md)', () => {
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
