import { call } from './stack.js';
import { firstValue } from './until.js';

/** A call to the API as the merchant, answering the status and the parsed body. */
type MerchantCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/**
 * The life every topology test walks first: `productId` (monthly, `amount` in cents) bought on the hosted
 * checkout in the sandbox with `pm_card_visa`, then renewed once by the organization's clock. Checks both orders
 * are paid at `amount`, and answers the subscription as listed before the renewal, and the two orders.
 */
export async function sellAndRenewOnce(sandboxBaseUrl: string, api: MerchantCall, productId: string, amount: number) {
  const checkout = await api('POST', '/v1/checkouts/', { products: [productId], customer_email: 'b@example.com' });
  expect(checkout.status).toBe(201);
  const confirmed = await call(sandboxBaseUrl, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_visa' },
  });
  expect(confirmed.status).toBe(200);
  // The subscription comes with the fulfilment, after the confirm: up to 60 s.
  const subscription = await firstValue(
    async () => (await api('GET', '/v1/subscriptions/?limit=10')).body.items[0],
    60_000,
    100,
  );
  expect(subscription).toMatchObject({ status: 'active', amount });

  // The renewal: a month later by the organization's clock.
  const renewed = await api('POST', '/v1/sandbox/clock/advance', { to: subscription.current_period_end });
  expect(renewed.status).toBe(200);
  const orders = await api('GET', `/v1/orders/?subscription_id=${subscription.id}&sorting=created_at`);
  expect(orders.body.items.map((o: any) => [o.billing_reason, o.status, o.total_amount])).toEqual([
    ['subscription_create', 'paid', amount],
    ['subscription_cycle', 'paid', amount],
  ]);
  return { subscription, orders: orders.body.items as { id: string }[] };
}
