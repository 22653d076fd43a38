import { PaymentFailed } from '@polar-sh/sdk/models/errors/paymentfailed.js';
import { failure, ok, polarClient } from '../support/sdk.js';
import {
  advance,
  customerWithCard,
  env,
  ONE_DAY,
  plan,
  type Plan,
  subscribe,
  tenant,
  usePlanChangesStack,
} from '../e2e/support/plan-changes.js';

/**
 * Plan changes through the official SDK, as a merchant's code would make them: the order the change
 * bills is what the SDK's `orders` reads, and a declined card is its typed PaymentFailed.
 */
usePlanChangesStack();

let basic: Plan;
let premium: Plan;

beforeAll(async () => {
  basic = await plan('Basic', 500);
  premium = await plan('Premium', 2000);
});

it("Polar's case through the SDK: the subscription_update order holds -483 and 1933 (proration), 1450 paid", async () => {
  const polar = polarClient(env, tenant.oat);
  const customer = await customerWithCard();
  const s = await subscribe(customer, basic);
  await advance(ONE_DAY);
  const updated = await ok(
    polar.subscriptions.update({
      id: s.id,
      subscriptionUpdate: { productId: premium.product.id, prorationBehavior: 'invoice' },
    }),
  );
  expect(updated).toMatchObject({ productId: premium.product.id, amount: 2000 });
  const page = await ok(polar.orders.list({ subscriptionId: s.id }));
  const [order] = page.result.items;
  expect(order).toMatchObject({ billingReason: 'subscription_update', paid: true, totalAmount: 1450, dueAmount: 1450 });
  expect(order.items.map(i => [i.amount, i.proration])).toEqual([
    [-483, true],
    [1933, true],
  ]);
});

it('a declined saved card is PaymentFailed (402) and the subscription is unchanged', async () => {
  const polar = polarClient(env, tenant.oat);
  const customer = await customerWithCard('pm_card_chargeCustomerFail');
  const s = await subscribe(customer, basic);
  await advance(ONE_DAY);
  const error = await failure(
    polar.subscriptions.update({
      id: s.id,
      subscriptionUpdate: { productId: premium.product.id, prorationBehavior: 'invoice' },
    }),
    PaymentFailed,
  );
  expect(error.detail).toBe('Payment failed with reason: card_error.');
  const after = await ok(polar.subscriptions.get({ id: s.id }));
  expect(after).toMatchObject({ productId: basic.product.id, amount: 500, pendingUpdate: null });
  expect((await ok(polar.orders.list({ subscriptionId: s.id }))).result.items).toEqual([]);
});
