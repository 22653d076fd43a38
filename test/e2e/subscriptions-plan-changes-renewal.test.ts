import { createOrder } from '../../subgraphs/billing/orders/create-order.js';
import {
  applyPendingUpdate,
  takeRenewalAdjustments,
} from '../../subgraphs/billing/subscriptions/lifecycle/renewal-adjustments.js';
import { Subscription } from '../../subgraphs/billing/subscriptions/subscription.entity.js';
import {
  advance,
  api,
  balanceOf,
  billingEm,
  customerWithCard,
  ONE_DAY,
  plan,
  type Plan,
  subscribe,
  usePlanChangesStack,
} from './support/plan-changes.js';

/**
 * The seam the renewal engine calls (subscriptions/lifecycle/renewal-adjustments.ts), at unit level inside a
 * transaction as the renewal runs it: `prorate` lines are taken by exactly one renewal order, a
 * `next_period` change applies at the period end, and customer balance pays the next orders first.
 */
usePlanChangesStack();

let basic: Plan;
let premium: Plan;

beforeAll(async () => {
  basic = await plan('Basic', 500);
  premium = await plan('Premium', 2000);
});

/** A renewal order as the engine would write it: the new period's line plus the adjustments. */
async function renew(subscriptionId: string) {
  return billingEm().transactional(async em => {
    const s = await em.findOneOrFail(Subscription, { id: subscriptionId });
    const at = s.currentPeriodEnd;
    await applyPendingUpdate(em, s, at);
    const adjustments = await takeRenewalAdjustments(em, s, at);
    const items = [
      ...adjustments.items,
      {
        label: s.productId === premium.product.id ? 'Premium' : 'Basic',
        amount: BigInt(s.amount),
        productPriceId: null,
      },
    ];
    const order = await createOrder(
      em,
      {
        organizationId: s.organizationId,
        customerId: s.customerId,
        productId: s.productId,
        productPriceId: s.priceIds[0] ?? null,
        subscriptionId: s.id,
        checkoutId: null,
        discountId: null,
        billingReason: 'subscription_cycle',
        currency: s.currency,
        items,
        discountAmount: 0n,
        billingName: null,
        billingAddress: null,
        seats: s.seats,
        metadata: {},
      },
      at,
      false,
    );
    const total = items.reduce((sum, item) => sum + item.amount, 0n);
    const settled = await adjustments.commit(order.id, total);
    return { orderId: order.id, items: items.map(i => Number(i.amount)), total: Number(total), ...settled };
  });
}

const orderOf = async (id: string) => (await api('GET', `/v1/orders/${id}`)).body;

it('prorate lines ride on the next renewal order once, not twice, and equal the preview', async () => {
  const customer = await customerWithCard();
  const s = await subscribe(customer, basic);
  await advance(ONE_DAY);
  const body = { product_id: premium.product.id, proration_behavior: 'prorate' };
  const quoted = (await api('POST', `/v1/subscriptions/${s.id}/update-preview`, body)).body;
  expect((await api('PATCH', `/v1/subscriptions/${s.id}`, body)).status).toBe(200);

  const first = await renew(s.id);
  expect(first.items).toEqual([-483, 1933, 2000]);
  expect(first).toMatchObject({ total: 3450, appliedBalanceAmount: 0n, dueAmount: 3450n });
  const order = await orderOf(first.orderId);
  expect(order.items.map((i: any) => ({ label: i.label, amount: i.amount, proration: i.proration }))).toEqual(
    quoted.items,
  );
  expect(order.total_amount).toBe(quoted.total_amount);

  const second = await renew(s.id);
  expect(second.items).toEqual([2000]);
});

it('a credit larger than the renewal becomes balance, and the next renewal uses it (applied_balance_amount)', async () => {
  const customer = await customerWithCard();
  const s = await subscribe(customer, premium);
  await advance(ONE_DAY);
  const res = await api('PATCH', `/v1/subscriptions/${s.id}`, {
    product_id: basic.product.id,
    proration_behavior: 'prorate',
  });
  expect(res.status).toBe(200);

  const first = await renew(s.id);
  expect(first.items).toEqual([-1933, 483, 500]);
  expect(first).toMatchObject({ total: -950, appliedBalanceAmount: 0n, dueAmount: 0n });
  expect(await balanceOf(customer.id)).toBe(950);

  const second = await renew(s.id);
  expect(second).toMatchObject({ total: 500, appliedBalanceAmount: -500n, dueAmount: 0n });
  expect(await orderOf(second.orderId)).toMatchObject({ applied_balance_amount: -500, due_amount: 0 });
  expect(await balanceOf(customer.id)).toBe(450);
});

it('a next_period change applies at the period end, not before', async () => {
  const customer = await customerWithCard();
  const s = await subscribe(customer, premium);
  const res = await api('PATCH', `/v1/subscriptions/${s.id}`, {
    product_id: basic.product.id,
    proration_behavior: 'next_period',
  });
  expect(res.status).toBe(200);
  const early = await billingEm().transactional(async em => {
    const row = await em.findOneOrFail(Subscription, { id: s.id });
    return applyPendingUpdate(em, row, new Date(row.currentPeriodEnd.getTime() - 1000));
  });
  expect(early).toBe(false);

  const renewal = await renew(s.id);
  expect(renewal.items).toEqual([500]);
  const after = (await api('GET', `/v1/subscriptions/${s.id}`)).body;
  expect(after).toMatchObject({ product_id: basic.product.id, amount: 500, pending_update: null });
});
