import { launchChromium, type Shop, startShop } from '../support/browser.js';
import { type Browser } from 'playwright-core';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * The hosted checkout in headless Chromium (Debian's `chromium`, driven by playwright-core) with
 * JavaScript turned off: a buyer subscribes on the page with the sandbox's test card, after a declined
 * one, and lands on the merchant's success URL (a tiny local server); the API then shows the order
 * paid and the subscription active.
 */
jest.setTimeout(90_000);

let stack: TestStack;
let base: string;
let owner: Tenant;
let browser: Browser;
let shop: Shop;
let shopUrl: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.sandbox.baseUrl;
  owner = await createTenant(stack.sandbox, { name: 'Browser Shop' });
  shop = await startShop();
  shopUrl = shop.url;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await stack?.close();
});

describe('the hosted checkout in a browser', () => {
  it('subscribes with pm_card_visa after a decline and lands on the success URL', async () => {
    const token = owner.oat;
    const product = await call(base, 'POST', '/v1/products/', {
      token,
      body: {
        name: 'Browser Pro',
        recurring_interval: 'month',
        prices: [{ amount_type: 'fixed', price_amount: 2500, price_currency: 'eur' }],
      },
    });
    expect(product.status).toBe(201);
    const created = await call(base, 'POST', '/v1/checkouts/', {
      token,
      body: {
        products: [product.body.id],
        require_billing_address: true,
        success_url: `${shopUrl}/thanks?checkout_id={CHECKOUT_ID}`,
      },
    });
    expect(created.status).toBe(201);
    const checkoutId = created.body.id as string;

    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${base}${new URL(created.body.url).pathname}`);
      await page.getByRole('heading', { name: 'Browser Pro' }).waitFor();
      await page.getByText('€25.00 / month').first().waitFor();

      await page.getByLabel('E-mail').fill('browser.buyer@example.com');
      await page.getByLabel('Name', { exact: false }).first().fill('Browser Buyer');
      await page.getByLabel('Address', { exact: true }).fill('1 Main Street');
      await page.getByLabel('Postal code').fill('10115');
      await page.getByLabel('City').fill('Berlin');
      await page.getByLabel('State / region').fill('Berlin');
      await page.getByLabel('Country (two letters, e.g. US)').fill('DE');
      await page.getByLabel('Card (test payment method)').fill('pm_card_chargeDeclined');
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await page.getByText('Your card was declined.').waitFor();
      // What was typed is still there; the checkout is still open.
      expect(await page.getByLabel('E-mail').inputValue()).toBe('browser.buyer@example.com');
      expect(await page.getByLabel('City').inputValue()).toBe('Berlin');

      await page.getByLabel('Card (test payment method)').fill('pm_card_visa');
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await page.waitForURL(`${shopUrl}/thanks?checkout_id=${checkoutId}`, { timeout: 20_000 });
      await page.getByRole('heading', { name: 'Thanks from the shop' }).waitFor();
      expect(shop.visits).toContain(`/thanks?checkout_id=${checkoutId}`);
    } finally {
      await context.close();
    }

    const checkout = await call(base, 'GET', `/v1/checkouts/${checkoutId}`, { token });
    expect(checkout.body).toMatchObject({
      status: 'succeeded',
      customer_email: 'browser.buyer@example.com',
      customer_billing_address: expect.objectContaining({ country: 'DE', city: 'Berlin' }),
    });
    const orders = await call(base, 'GET', `/v1/orders/?customer_id=${checkout.body.customer_id}`, { token });
    expect(orders.body.items).toEqual([
      expect.objectContaining({
        checkout_id: checkoutId,
        status: 'paid',
        paid: true,
        total_amount: 2500,
        currency: 'eur',
      }),
    ]);
    const subscriptions = await call(base, 'GET', `/v1/subscriptions/?customer_id=${checkout.body.customer_id}`, {
      token,
    });
    expect(subscriptions.body.items).toEqual([
      expect.objectContaining({ status: 'active', product_id: product.body.id, amount: 2500, currency: 'eur' }),
    ]);
  });
});
