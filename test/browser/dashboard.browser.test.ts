import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, pageProblems, type Shop, startShop } from '../support/browser.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The merchant dashboard in headless Chromium, in the sandbox, scripts on (the overview's charts): a
 * merchant signs in, creates a product, a buyer buys it through the hosted checkout, the merchant sees the
 * order and the revenue on the overview, refunds part of it, advances the clock and sees the renewal,
 * redelivers a webhook (to an endpoint added on the Webhooks page) and turns an e-mail kind off. With DASHBOARD_SCREENSHOTS=1 it saves each page at
 * 1280×800 under docs/dashboard/.
 */
// One story of some forty steps: 15 s on a quiet machine; a machine loaded ten times over once took 180 s.
jest.setTimeout(300_000);

const PASSWORD = 'correct horse battery';
const SCREENSHOTS = process.env.DASHBOARD_SCREENSHOTS === '1';
let stack: TestStack;
let base: string;
let owner: Tenant;
let browser: Browser;
let shop: Shop;
let receiver: WebhookReceiver;

beforeAll(async () => {
  // A stack of its own: its sale, renewal and redelivery drain the job queue, which on a shared stack holds
  // every earlier file's jobs too (docs/testing.md#one-stack-per-worker).
  stack = await startTestStack('dashboard_browser');
  base = stack.sandbox.baseUrl;
  owner = await createTenant(stack.sandbox, { name: 'Acme Analytics' });
  shop = await startShop();
  receiver = await new WebhookReceiver().start();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await shop?.close();
  await stack?.close();
});

async function snap(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  await mkdir('docs/dashboard', { recursive: true });
  await page.screenshot({ path: `docs/dashboard/${name}.png` });
}

/** The buyer's side: the hosted checkout of a checkout the merchant's site created through the API. */
async function buy(productId: string, email: string): Promise<void> {
  const created = await call(base, 'POST', '/v1/checkouts/', {
    token: owner.oat,
    body: { products: [productId], success_url: `${shop.url}/thanks` },
  });
  expect(created.status).toBe(201);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto(`${base}${new URL(created.body.url).pathname}`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Name', { exact: false }).first().fill('Dana Buyer');
    const country = page.getByLabel('Country (two letters, e.g. US)');
    if (await country.count()) await country.fill('US');
    await page.getByLabel('Card (test payment method)').fill('pm_card_visa');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL(`${shop.url}/thanks`, { timeout: 30_000 });
  } finally {
    await context.close();
  }
}

describe('the merchant dashboard in a browser', () => {
  it('sells, refunds, renews, redelivers and switches an e-mail off, all from the dashboard', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems = pageProblems(page, base);
    const dash = `${base}/dashboard/${owner.organizationId}`;
    try {
      // Signs in, and lands on the organization's overview (their only one).
      await page.goto(`${base}/dashboard`);
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(dash);
      await page.locator('[data-environment="sandbox"]').first().waitFor();

      // Adds a webhook endpoint for the sale's events (its page shows the signing secret).
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('URL').fill(receiver.url('/hooks'));
      await page.getByLabel('API version of the payloads').selectOption('2026-10');
      await page.getByRole('checkbox', { name: 'order.paid', exact: true }).check();
      await page.getByRole('checkbox', { name: 'subscription.created', exact: true }).check();
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      await page.getByText('The endpoint was created.').waitFor();
      await page.locator('[data-state="enabled"]').waitFor();
      await snap(page, 'webhook-endpoint');
      const endpoints = await call(base, 'GET', `/v1/webhooks/endpoints?organization_id=${owner.organizationId}`, {
        token: owner.oat,
      });
      expect(endpoints.body.items).toHaveLength(1);
      expect(endpoints.body.items[0]).toMatchObject({
        url: receiver.url('/hooks'),
        events: ['order.paid', 'subscription.created'],
        enabled: true,
      });

      // Creates a product.
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Products' }).click();
      await page.getByLabel('Name').fill('Pro plan');
      await page.getByLabel('Description').fill('Everything, monthly');
      await page.getByLabel(/^Price/).fill('19.00');
      await page.getByLabel('Billing').selectOption({ label: 'Every month' });
      await snap(page, 'products');
      await page.getByRole('button', { name: 'Create product' }).click();
      await page.getByText('The product was created.').waitFor();
      await page.getByText('$19.00 / month').first().waitFor();
      const productId = page.url().split('/products/')[1].split('?')[0];

      // A buyer buys it through the hosted checkout.
      await buy(productId, 'dana@example.com');

      // The order is listed, and the overview's revenue moved (the card, the table, and the chart drawn).
      await page.goto(`${dash}/orders`);
      const row = page.getByRole('row').filter({ hasText: 'dana@example.com' });
      await row.getByText('$19.00').waitFor();
      await snap(page, 'orders');
      await page.goto(dash);
      await page.locator('[data-metric="revenue"] strong', { hasText: '$19.00' }).waitFor();
      await page.locator('[data-metric="active_subscriptions"] strong', { hasText: '1' }).waitFor();
      await page.locator('figure[data-chart="revenue"] canvas').waitFor();
      expect(await page.locator('figure[data-chart]').count()).toBe(6);
      await snap(page, 'overview');

      // Refunds part of the order.
      await page.goto(`${dash}/orders`);
      await row.getByRole('link').first().click();
      await page.getByLabel(/^Amount/).fill('5.00');
      await page.getByLabel('Reason').selectOption('customer_request');
      await snap(page, 'order');
      await page.getByRole('button', { name: 'Refund' }).click();
      await page.getByText('The refund was made.').waitFor();
      await page.locator('[data-total]', { hasText: '$5.00 refunded' }).waitFor();

      // The invoice PDF, once the order has the billing details an invoice needs (in a page of its own:
      // the PDF is a download, which the problem watcher would count as an aborted request).
      const orderId = page.url().split('/orders/')[1].split('?')[0];
      const bought = await call(base, 'GET', `/v1/orders/${orderId}`, { token: owner.oat });
      const details = await call(base, 'PATCH', `/v1/orders/${orderId}`, {
        token: owner.oat,
        body: {
          billing_name: 'Dana Buyer GmbH',
          billing_address: {
            ...bought.body.billing_address,
            line1: '1 Main Street',
            city: 'Austin',
            postal_code: '73301',
          },
        },
      });
      expect(details.status).toBe(200);
      const invoicePage = await context.newPage();
      await invoicePage.goto(`${dash}/orders/${orderId}`);
      await invoicePage.getByRole('link', { name: 'Invoice (PDF)' }).click();
      const [pdf] = await Promise.all([
        invoicePage.waitForResponse(r => r.url().includes(`/v1/orders/${orderId}/invoice/pdf`)),
        invoicePage.getByRole('button', { name: 'Prepare and download the invoice' }).click(),
      ]);
      expect(pdf.status()).toBe(200);
      expect(pdf.headers()['content-type']).toBe('application/pdf');
      await invoicePage.close();

      // Advances the sandbox clock a month: the renewal is a second order of $19.00.
      await page.goto(`${dash}/settings`);
      await page.getByLabel('Advance by').selectOption({ label: '31 days' });
      await page.getByRole('button', { name: 'Advance the clock' }).click();
      await page.getByText('The clock moved; the work that fell due ran.').waitFor();
      await page.goto(`${dash}/orders`);
      await page.getByRole('row').filter({ hasText: 'dana@example.com' }).nth(1).waitFor();
      expect(await page.getByRole('row').filter({ hasText: 'dana@example.com' }).count()).toBe(2);
      const orders = await call(base, 'GET', `/v1/orders/?organization_id=${owner.organizationId}`, {
        token: owner.oat,
      });
      expect(orders.body.items.map((o: { billing_reason: string }) => o.billing_reason).sort()).toEqual([
        'subscription_create',
        'subscription_cycle',
      ]);
      await page.goto(`${dash}/subscriptions?status=active`);
      await page.getByRole('row').filter({ hasText: 'Pro plan' }).waitFor();
      await snap(page, 'subscriptions');

      // Redelivers a webhook: the same event reaches the endpoint again.
      await receiver.until(() => receiver.on('/hooks').length >= 2, 'the first deliveries');
      const before = receiver.on('/hooks').length;
      await page.goto(`${dash}/webhooks`);
      // A delivery's row (the endpoints' table above names the event types too).
      const delivery = page.locator('tr[data-delivery]').filter({ hasText: 'order.paid' }).first();
      await delivery.getByText('Show').click();
      await snap(page, 'webhooks');
      await delivery.getByRole('button', { name: 'Redeliver' }).click();
      await page.getByText('The event was queued for delivery again.').waitFor();
      await receiver.until(() => receiver.on('/hooks').length > before, 'the redelivery');
      const again = receiver.on('/hooks').at(-1)!;
      expect(receiver.on('/hooks').filter(r => r.headers['webhook-id'] === again.headers['webhook-id']).length).toBe(2);

      // Turns the order confirmation e-mail off.
      await page.goto(`${dash}/settings`);
      await page.getByLabel('Order confirmation').uncheck();
      await snap(page, 'settings');
      await page.getByRole('button', { name: 'Save e-mail settings' }).click();
      await page.getByText('Saved.').waitFor();
      expect(await page.getByLabel('Order confirmation').isChecked()).toBe(false);
      const organization = await call(base, 'GET', `/v1/organizations/${owner.organizationId}`, { token: owner.oat });
      expect(organization.body.customer_email_settings).toMatchObject({
        order_confirmation: false,
        subscription_confirmation: true,
      });

      // A customer's page with the subscription, the orders, the benefits and the meters.
      await page.goto(`${dash}/customers?query=dana`);
      await page.getByRole('link', { name: 'dana@example.com' }).click();
      await page.getByRole('heading', { name: 'Orders' }).waitFor();
      await page.getByRole('heading', { name: 'Meters' }).waitFor();
      await snap(page, 'customer');

      // The remaining sections, drawn without a problem (and saved for the docs).
      for (const [label, name] of [
        ['Customers', 'customers'],
        ['Discounts', 'discounts'],
        ['Checkout links', 'checkout-links'],
        ['Members', 'members'],
      ] as const) {
        await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: label }).click();
        await page.getByRole('heading', { level: 1, name: label }).waitFor();
        await snap(page, name);
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
