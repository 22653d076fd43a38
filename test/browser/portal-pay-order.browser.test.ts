import { type Browser, type Page } from 'playwright-core';
import { ManualClock } from '../../kit/clock.js';
import { launchChromium } from '../support/browser.js';
import { call, createTenant, type Tenant } from '../support/stack.js';
import { type StripeJsStack, startStripeJsStack } from '../support/stripe-stack.js';

/**
 * The portal's "pay this order" page in production, in headless Chromium with JavaScript on: Stripe is
 * configured and points at fakes on loopback (the fake Stripe API and the fake Stripe.js, as
 * stripe-checkout.browser.test.ts). A trial bought with Stripe's `pm_card_chargeCustomerFail` (saved
 * fine, declined on every charge) converts into a declined renewal: the subscription is past due and
 * its renewal order pending. The customer follows "Pay now" from the portal's orders and types a card
 * into the Payment Element: a declined number shows the bank's refusal in the page's error box and the
 * order stays pending; 4242… pays it, and the subscription is active again. A card that asks for 3-D
 * Secure goes through Stripe.js's next action: failed, nothing is charged; completed, Stripe's webhook
 * pays the order. The service's time is a manual clock that starts at the real time, moved only to reach
 * the renewal (the fake Stripe signs its webhooks by it).
 */
jest.setTimeout(120_000);

const wall = new ManualClock(new Date());
let world: StripeJsStack;
let owner: Tenant;
let browser: Browser;

beforeAll(async () => {
  world = await startStripeJsStack('portal_pay_browser', 'whsec_portal_pay', wall);
  owner = await createTenant(world.stack.production, { name: 'Renewal Shop' });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const api = (method: string, path: string, body?: unknown) =>
  call(world.base, method, path, { token: owner.oat, body });

/** A 3-day trial of a 12.00 USD monthly plan, bought with a card every charge of which is declined, renewed. */
async function pastDueRenewal(email: string): Promise<{ subscriptionId: string; orderId: string; customerId: string }> {
  const product = await api('POST', '/v1/products/', {
    name: 'Monthly Plan',
    recurring_interval: 'month',
    trial_interval: 'day',
    trial_interval_count: 3,
    prices: [{ amount_type: 'fixed', price_amount: 1200, price_currency: 'usd' }],
  });
  expect(product.status).toBe(201);
  const checkout = await api('POST', '/v1/checkouts/', { products: [product.body.id], customer_email: email });
  const confirmed = await call(world.base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_chargeCustomerFail' },
  });
  expect([confirmed.status, confirmed.body.status]).toEqual([200, 'confirmed']);
  const customerId = (await api('GET', `/v1/checkouts/${checkout.body.id}`)).body.customer_id as string;
  const [sub] = (await api('GET', `/v1/subscriptions/?customer_id=${customerId}`)).body.items;
  expect(sub.status).toBe('trialing');
  wall.set(new Date(new Date(sub.current_period_end).getTime() + 1000));
  expect(await world.stack.production.environment.billing.renewals.tick()).toBeGreaterThan(0);
  expect((await api('GET', `/v1/subscriptions/${sub.id}`)).body.status).toBe('past_due');
  const orders = (await api('GET', `/v1/orders/?subscription_id=${sub.id}`)).body.items;
  const order = orders.find((o: any) => o.billing_reason === 'subscription_cycle');
  expect(order).toMatchObject({ status: 'pending', total_amount: 1200 });
  return { subscriptionId: sub.id, orderId: order.id, customerId };
}

/** The portal, signed in as the customer, on its orders list. */
async function portalOrders(page: Page, customerId: string): Promise<void> {
  const session = await api('POST', '/v1/customer-sessions/', { customer_id: customerId });
  expect(session.status).toBe(201);
  await page.goto(session.body.customer_portal_url.replace(/^https?:\/\/[^/]+/, world.base));
  await page.getByRole('link', { name: 'Orders' }).click();
}

describe("the portal's pay-this-order page with Stripe.js", () => {
  it('refuses a declined card inside its error box, then pays with 4242 4242 4242 4242; the subscription is active', async () => {
    const { subscriptionId, orderId, customerId } = await pastDueRenewal('renewal.payer@example.com');
    const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
    const page = await context.newPage();
    try {
      await portalOrders(page, customerId);
      // Where the past-due e-mail's link lands: the subscription says so and leads to the payment.
      await page.goto(`${world.base}/portal/${owner.slug}/subscriptions/${subscriptionId}`);
      const note = page.getByRole('note').filter({ hasText: 'The last payment for this subscription failed.' });
      await note.getByRole('link', { name: 'Pay it now' }).click();
      await page.getByRole('note').getByText('Monthly Plan is waiting for payment.').waitFor();
      await page.getByRole('link', { name: 'Pay now' }).click();
      await page.getByRole('heading', { name: 'Pay $12.00' }).waitFor();
      expect(await page.getByText('confirmation token').count()).toBe(0);

      await page.getByLabel('Card number').fill('4000 0000 0000 0002');
      await page.getByRole('button', { name: 'Pay $12.00' }).click();
      const box = page.getByRole('alert');
      await box.getByText('Your card was declined.').waitFor();
      expect(await box.evaluate(el => el.scrollWidth - el.clientWidth)).toBe(0);
      expect((await api('GET', `/v1/orders/${orderId}`)).body.status).toBe('pending');

      await page.getByLabel('Card number').fill('4242 4242 4242 4242');
      await page.getByRole('button', { name: 'Pay $12.00' }).click();
      await page.getByText('Thank you: your payment was sent.').waitFor();
    } finally {
      await context.close();
    }
    expect(world.stripeJs.elementsOptions.at(-1)).toMatchObject({ mode: 'payment', currency: 'usd', amount: 1200 });
    const charge = world.stripe.requests.filter(r => r.path === '/v1/payment_intents').at(-1);
    expect(charge?.params).toMatchObject({ amount: '1200', confirmation_token: expect.stringMatching(/^ctoken_/) });
    expect((await api('GET', `/v1/orders/${orderId}`)).body).toMatchObject({ status: 'paid', paid: true });
    expect((await api('GET', `/v1/subscriptions/${subscriptionId}`)).body.status).toBe('active');
  });

  it('goes through 3-D Secure for 4000 0000 0000 3220: failed, nothing charged; completed, the webhook pays it', async () => {
    const { subscriptionId, orderId, customerId } = await pastDueRenewal('secure.payer@example.com');
    const payments = async () => {
      const res = await api('GET', `/v1/payments/?order_id=${orderId}&limit=100`);
      return res.body.items.map((p: any) => p.status).sort();
    };
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await portalOrders(page, customerId);
      await page.getByRole('link', { name: 'Pay now' }).click();
      await page.getByLabel('Card number').fill('4000 0000 0000 3220');
      await page.getByRole('button', { name: 'Pay $12.00' }).click();
      await page.getByRole('button', { name: 'Fail authentication' }).click();
      await page.getByText('Your bank did not confirm the payment, so nothing was charged.').waitFor();
      // Stripe's payment_intent.payment_failed settles the attempt (delivered beside the page's redirect).
      while ((await payments()).includes('pending')) await new Promise(resolve => setTimeout(resolve, 100));
      expect((await api('GET', `/v1/orders/${orderId}`)).body.status).toBe('pending');

      await page.getByRole('link', { name: 'Pay now' }).click();
      await page.getByLabel('Card number').fill('4000 0000 0000 3220');
      await page.getByRole('button', { name: 'Pay $12.00' }).click();
      await page.getByRole('button', { name: 'Complete authentication' }).click();
      await page.getByText('Thank you: your payment was sent.').waitFor();
    } finally {
      await context.close();
    }
    while ((await api('GET', `/v1/orders/${orderId}`)).body.status !== 'paid')
      await new Promise(resolve => setTimeout(resolve, 100));
    expect((await api('GET', `/v1/subscriptions/${subscriptionId}`)).body.status).toBe('active');
    expect(await payments()).toEqual(['failed', 'failed', 'succeeded']);
  });
});
