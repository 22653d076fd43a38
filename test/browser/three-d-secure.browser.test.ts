import { launchChromium, type Shop, startShop } from '../support/browser.js';
import { type Browser, type Page } from 'playwright-core';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * 3-D Secure on the sandbox's hosted checkout in headless Chromium (docs/payments.md, docs/selling.md):
 * the buyer types Stripe's 3-D Secure 2 test card number, the simulated bank page shows the amount;
 * completing it lands on the merchant's success URL with exactly one order, failing it brings the buyer
 * back to the form with the reason inside its error box, the checkout open and no order.
 */
jest.setTimeout(120_000);

// Generous readiness waits: the machine running this is shared and loaded.
const READY = { timeout: 30_000 };

let stack: TestStack;
let base: string;
let owner: Tenant;
let browser: Browser;
let shop: Shop;
let shopUrl: string;
let productId: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.sandbox.baseUrl;
  owner = await createTenant(stack.sandbox, { name: 'Secure Shop' });
  shop = await startShop();
  shopUrl = shop.url;
  const product = await call(base, 'POST', '/v1/products/', {
    token: owner.oat,
    body: { name: 'Secure Lamp', prices: [{ amount_type: 'fixed', price_amount: 4200, price_currency: 'eur' }] },
  });
  expect(product.status).toBe(201);
  productId = product.body.id;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await stack?.close();
});

async function openCheckout(): Promise<{ checkoutId: string; path: string }> {
  const created = await call(base, 'POST', '/v1/checkouts/', {
    token: owner.oat,
    body: { products: [productId], success_url: `${shopUrl}/thanks?checkout_id={CHECKOUT_ID}` },
  });
  expect(created.status).toBe(201);
  return { checkoutId: created.body.id, path: new URL(created.body.url).pathname };
}

/** Fills the form with the 3-D Secure card number, pays, and waits for the bank page with the amount. */
async function payWithThreeDSecureCard(page: Page, path: string): Promise<void> {
  await page.goto(`${base}${path}`);
  await page.getByRole('heading', { name: 'Secure Lamp' }).waitFor(READY);
  await page.getByLabel('E-mail').fill('secure.buyer@example.com');
  await page.getByLabel('Country (two letters, e.g. US)').fill('DE');
  await page.getByLabel('Card (test payment method)').fill('4000 0000 0000 3220');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.waitForURL(url => url.pathname === '/sandbox/payment-challenge', READY);
  await page.getByText('€42.00').first().waitFor(READY);
}

async function ordersOf(checkoutId: string) {
  const orders = await call(base, 'GET', `/v1/orders/?organization_id=${owner.organizationId}`, { token: owner.oat });
  expect(orders.status).toBe(200);
  return (orders.body.items as { checkout_id: string }[]).filter(o => o.checkout_id === checkoutId);
}

describe('3-D Secure on the sandbox checkout in a browser', () => {
  it('completing the authentication lands on the success URL with one order', async () => {
    const { checkoutId, path } = await openCheckout();
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await payWithThreeDSecureCard(page, path);
      await page.getByRole('button', { name: 'Complete authentication' }).click();
      await page.waitForURL(`${shopUrl}/thanks?checkout_id=${checkoutId}`, READY);
      await page.getByRole('heading', { name: 'Thanks from the shop' }).waitFor(READY);
    } finally {
      await context.close();
    }
    const checkout = await call(base, 'GET', `/v1/checkouts/${checkoutId}`, { token: owner.oat });
    expect(checkout.body.status).toBe('succeeded');
    expect(await ordersOf(checkoutId)).toEqual([
      expect.objectContaining({ status: 'paid', total_amount: 4200, currency: 'eur' }),
    ]);
  });

  it('failing the authentication shows the reason inside the error box, checkout open, no order', async () => {
    const { checkoutId, path } = await openCheckout();
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await payWithThreeDSecureCard(page, path);
      await page.getByRole('button', { name: 'Fail authentication' }).click();
      await page.waitForURL(url => url.pathname === path, READY);
      const box = page.locator('.card div.error[role="alert"]');
      await box.waitFor(READY);
      expect(await box.textContent()).toMatch(/We are unable to authenticate your payment method/);
      await page.getByRole('button', { name: 'Pay', exact: true }).waitFor(READY);
    } finally {
      await context.close();
    }
    const checkout = await call(base, 'GET', `/v1/checkouts/${checkoutId}`, { token: owner.oat });
    expect(checkout.body.status).toBe('open');
    expect(await ordersOf(checkoutId)).toEqual([]);
  });
});
