import { launchChromium, type Shop, startShop } from '../support/browser.js';
import { type Browser, type Page } from 'playwright-core';
import type { FakeStripe } from '../support/fake-stripe.js';
import type { FakeStripeJs } from '../support/fake-stripe-js.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { type StripeJsStack, startStripeJsStack } from '../support/stripe-stack.js';

/**
 * The production checkout page in headless Chromium with JavaScript on: Stripe is configured
 * (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET) and points at fakes on loopback
 * (STRIPE_API_URL: fake-stripe.ts; STRIPE_JS_URL: fake-stripe-js.ts, whose Payment Element is a plain
 * card-number input). A buyer types Stripe's test card numbers into the page: 4242… lands on the
 * merchant's success URL with the order paid; 4000…0002 shows the decline in the page's error box and
 * makes no order.
 */
jest.setTimeout(120_000);

let stripe: FakeStripe;
let stripeJs: FakeStripeJs;
let world: StripeJsStack;
let stack: TestStack;
let base: string;
let owner: Tenant;
let browser: Browser;
let shop: Shop;
let shopUrl: string;

beforeAll(async () => {
  world = await startStripeJsStack('stripe_checkout_browser', 'whsec_browser');
  ({ stripe, stripeJs, stack, base } = world);
  owner = await createTenant(stack.production, { name: 'Card Shop' });
  shop = await startShop();
  shopUrl = shop.url;
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await world?.close();
});

const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: owner.oat, body });

/** A one-time product's checkout that returns to the shop; its id and page path. */
async function checkoutFor(amount: number): Promise<{ id: string; path: string }> {
  const product = await api('POST', '/v1/products/', {
    name: 'Card Product',
    prices: [{ amount_type: 'fixed', price_amount: amount, price_currency: 'usd' }],
  });
  expect(product.status).toBe(201);
  const created = await api('POST', '/v1/checkouts/', {
    products: [product.body.id],
    success_url: `${shopUrl}/thanks?checkout_id={CHECKOUT_ID}`,
  });
  expect(created.status).toBe(201);
  return { id: created.body.id, path: new URL(created.body.url).pathname };
}

async function pay(page: Page, email: string, cardNumber: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Country (two letters, e.g. US)').fill('US');
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByRole('button', { name: 'Pay' }).click();
}

describe('the production checkout with Stripe.js', () => {
  it('pays with 4242 4242 4242 4242 and lands on the success URL; the order is paid', async () => {
    const checkout = await checkoutFor(1900);
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      const response = await page.goto(`${base}${checkout.path}`);
      const csp = response?.headers()['content-security-policy'] ?? '';
      const origin = new URL(stripeJs.url).origin;
      expect(csp).toContain(`script-src 'self' ${origin}`);
      expect(csp).toContain(`connect-src ${origin}`);
      expect(await page.getByText('confirmation token').count()).toBe(0);
      await page.getByLabel('Card number').waitFor();
      await pay(page, 'card.buyer@example.com', '4242 4242 4242 4242');
      await page.waitForURL(`${shopUrl}/thanks?checkout_id=${checkout.id}`, { timeout: 20_000 });
    } finally {
      await context.close();
    }
    expect(stripeJs.elementsOptions.at(-1)).toEqual({
      mode: 'payment',
      currency: 'usd',
      amount: 1900,
      paymentMethodCreation: 'manual',
    });
    const confirm = stripe.requests.find(r => r.path === '/v1/payment_intents' && r.params.amount === '1900');
    expect(String(confirm?.params.confirmation_token)).toMatch(/^ctoken_/);
    const orders = await api('GET', `/v1/orders/?checkout_id=${checkout.id}`);
    expect(orders.body.items).toEqual([expect.objectContaining({ status: 'paid', total_amount: 1900 })]);
  });

  it('shows a declined card in the error box and makes no order', async () => {
    const checkout = await checkoutFor(2900);
    const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${base}${checkout.path}`);
      await pay(page, 'declined.buyer@example.com', '4000 0000 0000 0002');
      const error = page.getByRole('alert');
      await error.getByText('Your card was declined.').waitFor();
      // What was typed is still there, and the card field is mounted again for another try.
      expect(await page.getByLabel('E-mail').inputValue()).toBe('declined.buyer@example.com');
      await page.getByLabel('Card number').waitFor();
    } finally {
      await context.close();
    }
    const orders = await api('GET', `/v1/orders/?checkout_id=${checkout.id}`);
    expect(orders.body.items).toEqual([]);
    const state = await api('GET', `/v1/checkouts/${checkout.id}`);
    expect(state.body.status).toBe('open');
  });

  it('serves its script with caching headers, and no script on pages that take no card', async () => {
    const asset = await fetch(`${base}/assets/card-form.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=3600');
    const login = await fetch(`${base}/login`);
    expect(login.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src/);
    expect(await login.text()).not.toContain('<script');
  });
});

describe("3-D Secure on the production page (Stripe.js handleNextAction, then Stripe's webhook)", () => {
  it('completes the challenge for 4000 0000 0000 3220 and lands on the success URL; the order is paid', async () => {
    const checkout = await checkoutFor(3900);
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${base}${checkout.path}`);
      await pay(page, 'secure.buyer@example.com', '4000 0000 0000 3220');
      await page.getByRole('heading', { name: 'Confirm your payment' }).waitFor();
      await page.getByRole('button', { name: 'Complete authentication' }).click();
      await page.waitForURL(`${shopUrl}/thanks?checkout_id=${checkout.id}`, { timeout: 30_000 });
    } finally {
      await context.close();
    }
    const orders = await api('GET', `/v1/orders/?checkout_id=${checkout.id}`);
    expect(orders.body.items).toEqual([expect.objectContaining({ status: 'paid', total_amount: 3900 })]);
  });

  it('fails the challenge: the form says so in its error box, the checkout is open, no order', async () => {
    const checkout = await checkoutFor(4900);
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${base}${checkout.path}`);
      await pay(page, 'unsure.buyer@example.com', '4000 0027 6000 3184');
      await page.getByRole('button', { name: 'Fail authentication' }).click();
      await page
        .getByRole('alert')
        .getByText('We are unable to authenticate your payment method.')
        .waitFor({ timeout: 30_000 });
      await page.getByLabel('Card number').waitFor();
    } finally {
      await context.close();
    }
    expect((await api('GET', `/v1/checkouts/${checkout.id}`)).body.status).toBe('open');
    expect((await api('GET', `/v1/orders/?checkout_id=${checkout.id}`)).body.items).toEqual([]);
  });
});

describe('the portal with Stripe.js', () => {
  it('saves a card typed into the Payment Element (setup mode) as the default payment method', async () => {
    const customer = await api('POST', '/v1/customers/', { email: 'portal.card@example.com' });
    expect(customer.status).toBe(201);
    const session = await api('POST', '/v1/customer-sessions/', { customer_id: customer.body.id });
    expect(session.status).toBe(201);
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(session.body.customer_portal_url.replace(/^https?:\/\/[^/]+/, base));
      await page.getByRole('link', { name: 'Payment methods' }).click();
      await page.getByRole('link', { name: 'Add a payment method' }).click();
      await page.getByLabel('Card number').fill('5555 5555 5555 4444');
      await page.getByRole('button', { name: 'Save card' }).click();
      await page.getByText('Your card was saved').waitFor();
      await page.getByText('mastercard ending in 4444').waitFor();
    } finally {
      await context.close();
    }
    expect(stripeJs.elementsOptions.at(-1)).toMatchObject({ mode: 'setup', setupFutureUsage: 'off_session' });
    const setup = stripe.requests.filter(r => r.path === '/v1/setup_intents').at(-1);
    expect(String(setup?.params.confirmation_token)).toMatch(/^ctoken_/);
  });
});

describe('the error box on a narrow screen', () => {
  it('keeps a long error inside its box at 360 px (the sandbox names every test method)', async () => {
    const sandbox = await createTenant(stack.sandbox, { name: 'Narrow Shop' });
    const sandboxApi = (method: string, path: string, body?: unknown) =>
      call(stack.sandbox.baseUrl, method, path, { token: sandbox.oat, body });
    const product = await sandboxApi('POST', '/v1/products/', {
      name: 'Narrow Product',
      prices: [{ amount_type: 'fixed', price_amount: 500, price_currency: 'usd' }],
    });
    const created = await sandboxApi('POST', '/v1/checkouts/', { products: [product.body.id] });
    const context = await browser.newContext({ viewport: { width: 360, height: 800 }, javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${stack.sandbox.baseUrl}${new URL(created.body.url).pathname}`);
      await page.getByLabel('E-mail').fill('narrow@example.com');
      await page.getByLabel('Country (two letters, e.g. US)').fill('US');
      await page.getByLabel('Card (test payment method)').fill('pm_card_doesNotExistAnywhereInStripesTestMethods');
      await page.getByRole('button', { name: 'Pay' }).click();
      const box = page.getByRole('alert');
      await box.getByText('pm_card_chargeDeclinedInsufficientFunds').waitFor();
      // The box's text does not overflow it, and the box stays within the card around it.
      const overflow = await box.evaluate(el => el.scrollWidth - el.clientWidth);
      const [b, c] = [await box.boundingBox(), await page.locator('.card').first().boundingBox()];
      const fits = { overflow, inside: !!b && !!c && b.x >= c.x && b.x + b.width <= c.x + c.width };
      expect(fits).toEqual({ overflow: 0, inside: true });
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    } finally {
      await context.close();
    }
  });
});
