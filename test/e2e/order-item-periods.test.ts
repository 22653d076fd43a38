import {
  advance,
  api,
  clockNow,
  customerWithCard,
  ONE_DAY,
  ordersOf,
  plan,
  type Plan,
  subscribe,
  usePlanChangesStack,
} from './support/plan-changes.js';

/**
 * The period each order line covers (`items[].start_timestamp`/`end_timestamp`, docs/selling.md#order-item-periods),
 * in the sandbox with its clock: a subscription's first order covers its first period and a one-time
 * purchase nothing; a plan change billed now covers the rest of the period; a `prorate` change's lines
 * carry that same span into the renewal order, whose price line covers the new period.
 */
usePlanChangesStack();

let basic: Plan;
let premium: Plan;

beforeAll(async () => {
  basic = await plan('Basic', 500);
  premium = await plan('Premium', 2000);
});

const iso = (d: Date | string) => new Date(d).toISOString();
const periodsOf = (order: any) =>
  order.items.map((i: any) => [
    i.label,
    i.start_timestamp && iso(i.start_timestamp),
    i.end_timestamp && iso(i.end_timestamp),
  ]);

/** The order a checkout of this product makes, with the test card. */
async function buy(productId: string, email: string) {
  const checkout = await api('POST', '/v1/checkouts/', { products: [productId], customer_email: email });
  expect(checkout.status).toBe(201);
  const confirmed = await api('POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    confirmation_token_id: 'pm_card_visa',
  });
  expect(confirmed.status).toBe(200);
  for (let i = 0; i < 100; i++) {
    const orders = await api('GET', `/v1/orders/?checkout_id=${checkout.body.id}`);
    if (orders.body.items[0]) return orders.body.items[0];
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  throw new Error('no order');
}

describe('order item periods', () => {
  it("covers a new subscription's first period, and nothing for a one-time purchase", async () => {
    const order = await buy(basic.product.id, 'first@example.com');
    const subscription = (await api('GET', `/v1/subscriptions/${order.subscription_id}`)).body;
    expect(periodsOf(order)).toEqual([
      ['Basic', iso(subscription.current_period_start), iso(subscription.current_period_end)],
    ]);
    const book = await api('POST', '/v1/products/', {
      name: 'Book',
      recurring_interval: null,
      prices: [{ amount_type: 'fixed', price_amount: 700 }],
    });
    expect(periodsOf(await buy(book.body.id, 'reader@example.com'))).toEqual([['Book', null, null]]);
  });

  it('a change billed now covers the rest of the period, on both proration lines', async () => {
    const customer = await customerWithCard();
    const s = await subscribe(customer, basic);
    await advance(ONE_DAY);
    const before = await clockNow();
    const res = await api('PATCH', `/v1/subscriptions/${s.id}`, {
      product_id: premium.product.id,
      proration_behavior: 'invoice',
    });
    expect(res.status).toBe(200);
    const [order] = await ordersOf(s.id);
    const lines = periodsOf(order);
    expect(lines.map((l: string[]) => [l[0], l[2]])).toEqual([
      ['Unused time on Basic', iso(s.currentPeriodEnd)],
      ['Remaining time on Premium', iso(s.currentPeriodEnd)],
    ]);
    for (const [, start] of lines) {
      expect(new Date(start).getTime()).toBeGreaterThanOrEqual(before.getTime());
      expect(new Date(start).getTime()).toBeLessThan(before.getTime() + 60_000);
    }
  });

  it("a prorate change's lines keep their span in the renewal order, whose price line covers the new period", async () => {
    const customer = await customerWithCard();
    const s = await subscribe(customer, basic);
    await advance(ONE_DAY);
    const changedAt = await clockNow();
    const res = await api('PATCH', `/v1/subscriptions/${s.id}`, {
      product_id: premium.product.id,
      proration_behavior: 'prorate',
    });
    expect(res.status).toBe(200);
    await advance(29 * ONE_DAY + 60);
    const [renewal] = await ordersOf(s.id);
    expect(renewal.billing_reason).toBe('subscription_cycle');
    const renewed = (await api('GET', `/v1/subscriptions/${s.id}`)).body;
    const lines = periodsOf(renewal);
    expect(lines[0]).toEqual([
      expect.stringContaining('Premium'),
      iso(s.currentPeriodEnd),
      iso(renewed.current_period_end),
    ]);
    expect(lines.slice(1).map((l: string[]) => [l[0], l[2]])).toEqual([
      ['Unused time on Basic', iso(s.currentPeriodEnd)],
      ['Remaining time on Premium', iso(s.currentPeriodEnd)],
    ]);
    for (const [, start] of lines.slice(1))
      expect(Math.abs(new Date(start).getTime() - changedAt.getTime())).toBeLessThan(60_000);
  });
});
