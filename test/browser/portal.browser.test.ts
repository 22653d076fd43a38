import { launchChromium } from '../support/browser.js';
import { type Browser } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { createBenefit, untilGranted, uploadFile } from '../support/portal-benefits.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { firstValue } from '../support/until.js';

/**
 * The customer portal pages in headless Chromium with JavaScript off: opened from a customer session's
 * `customer_portal_url` (the token leaves the URL for an HttpOnly cookie), cancel at period end,
 * uncancel, billing details; a plan change through its preview page; a license key and a file download;
 * a deep link into the cancel view with a return URL; and the sign-in by
 * e-mailed code (read from the outbox, as a customer reads their inbox).
 */
jest.setTimeout(120_000);

let stack: TestStack;
let base: string;
let shop: Tenant;
let fixtures: BillingFixtures;
let browser: Browser;
let customer: { id: string; email: string };
let plan: Awaited<ReturnType<BillingFixtures['product']>>;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  shop = await createTenant(stack.production, { name: 'Acme Tools' });
  fixtures = new BillingFixtures(stack.production);
  const created = await fixtures.customer(shop.organizationId, { name: 'Dana Buyer' });
  customer = { id: created.id, email: created.email as string };
  plan = await fixtures.product(shop.organizationId, { name: 'Pro plan', amount: 0 });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function session(body: Record<string, unknown> = {}) {
  const res = await call(base, 'POST', '/v1/customer-sessions/', {
    token: shop.oat,
    body: { customer_id: customer.id, ...body },
  });
  expect(res.status).toBe(201);
  return res.body as { token: string; customer_portal_url: string };
}

const subscription = () =>
  fixtures.subscription({
    organizationId: shop.organizationId,
    customerId: customer.id,
    productId: plan.product.id,
    priceIds: [plan.price.id],
  });

const portalGet = (id: string, token: string) =>
  call(base, 'GET', `/v1/customer-portal/subscriptions/${id}`, { token }).then(r => r.body);

describe('the customer portal in a browser', () => {
  it('opens from customer_portal_url, cancels at period end, uncancels, and edits billing details', async () => {
    const sub = await subscription();
    const { customer_portal_url: url, token } = await session();
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      // The stack's public URL names the default port; the path and query are the link.
      expect(url).toMatch(/\/portal\?customer_session_token=polar_cst_/);
      const link = new URL(url);
      await page.goto(`${base}${link.pathname}${link.search}`);
      // The token is exchanged for a cookie scoped to the seller's portal and dropped from the URL.
      await page.waitForURL(`${base}/portal/${shop.slug}/subscriptions`);
      const cookie = (await context.cookies(`${base}/portal/${shop.slug}/`)).find(
        c => c.name === 'polar_portal_session',
      )!;
      expect(cookie).toMatchObject({ value: token, httpOnly: true, sameSite: 'Lax', path: `/portal/${shop.slug}` });
      await page.getByRole('link', { name: 'Acme Tools' }).waitFor();
      await page.getByText(`Signed in as ${customer.email}`).waitFor();

      const row = page.getByRole('row').filter({ hasText: 'Pro plan' });
      await row.getByText('Active').waitFor();
      await row.getByRole('link', { name: 'Manage' }).click();
      await page.waitForURL(`${base}/portal/${shop.slug}/subscriptions/${sub.id}`);

      await page.getByRole('link', { name: 'Cancel subscription' }).click();
      await page.getByRole('heading', { name: 'Cancel subscription' }).waitFor();
      await page.getByLabel('Why are you canceling?').selectOption('too_expensive');
      await page.getByRole('button', { name: 'Cancel at period end' }).click();
      await page.getByText('will be canceled at the end of the current period').waitFor();
      await page.getByText(/^Cancels on /).waitFor();
      expect(await portalGet(sub.id, token)).toMatchObject({
        cancel_at_period_end: true,
        customer_cancellation_reason: 'too_expensive',
      });

      await page.getByRole('button', { name: 'Keep subscription' }).click();
      await page.getByText('Your subscription will continue.').waitFor();
      expect((await portalGet(sub.id, token)).cancel_at_period_end).toBe(false);
      await page.getByRole('link', { name: 'Cancel subscription' }).waitFor();

      await page.getByRole('link', { name: 'Billing details' }).click();
      await page.getByLabel('Billing name').fill('Dana Buyer GmbH');
      await page.getByLabel('Address', { exact: true }).fill('1 Main Street');
      await page.getByLabel('Postal code').fill('10115');
      await page.getByLabel('City').fill('Berlin');
      await page.getByLabel('Country (two-letter code, e.g. US)').fill('Germany');
      await page.getByRole('button', { name: 'Save billing details' }).click();
      await page.getByRole('alert').getByText('ISO 3166-1 alpha-2').waitFor();
      await page.getByLabel('Country (two-letter code, e.g. US)').fill('de');
      await page.getByRole('button', { name: 'Save billing details' }).click();
      await page.getByText('Your billing details were saved.').waitFor();
      const me = (await call(base, 'GET', '/v1/customer-portal/customers/me', { token })).body;
      expect(me).toMatchObject({
        billing_name: 'Dana Buyer GmbH',
        billing_address: { line1: '1 Main Street', postal_code: '10115', city: 'Berlin', country: 'DE' },
      });
      expect(await page.getByLabel('City').inputValue()).toBe('Berlin');

      await page.getByRole('link', { name: 'Orders' }).click();
      await page.getByRole('heading', { name: 'Orders' }).waitFor();

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${base}/portal/${shop.slug}/request`);
      // Signed out, the portal's pages lead to the sign-in again.
      await page.goto(`${base}/portal/${shop.slug}`);
      await page.waitForURL(`${base}/portal/${shop.slug}/request`);
      expect(
        (await context.cookies(`${base}/portal/${shop.slug}/`)).find(c => c.name === 'polar_portal_session'),
      ).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it('changes the plan where the seller allows it, and hides the change where it does not', async () => {
    const sub = await subscription();
    const team = await fixtures.product(shop.organizationId, { name: 'Team plan', amount: 0 });
    const { token } = await session();
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${base}/portal/${shop.slug}/subscriptions/${sub.id}?customer_session_token=${token}`);
      await page.waitForURL(`${base}/portal/${shop.slug}/subscriptions/${sub.id}`);
      await page.getByRole('link', { name: 'Change plan' }).click();
      await page.getByRole('heading', { name: 'Change plan' }).waitFor();
      await page.getByLabel('Team plan').check();
      await page.getByRole('button', { name: 'Review the change' }).click();
      // The preview on its own page (the API's update preview): lines, total, when it applies.
      await page.waitForURL(
        `${base}/portal/${shop.slug}/subscriptions/${sub.id}/change-plan/review?product_id=${team.product.id}`,
      );
      await page.getByRole('heading', { name: 'Review the change' }).waitFor();
      await page.getByRole('heading', { name: 'Change to Team plan' }).waitFor();
      expect(await page.locator('[data-total]').textContent()).toBe('$0.00');
      await page.getByText('The change applies now. Nothing is charged now.').waitFor();
      expect((await portalGet(sub.id, token)).product_id).toBe(plan.product.id);
      await page.getByRole('button', { name: 'Confirm the change' }).click();
      await page.getByText('Your plan was changed.').waitFor();
      expect((await portalGet(sub.id, token)).product_id).toBe(team.product.id);

      const off = await call(base, 'PATCH', `/v1/organizations/${shop.organizationId}`, {
        token: shop.oat,
        body: {
          customer_portal_settings: { usage: { show: true }, subscription: { update_seats: true, update_plan: false } },
        },
      });
      expect(off.status).toBe(200);
      await page.reload();
      await page.getByRole('link', { name: 'Cancel subscription' }).waitFor();
      expect(await page.getByRole('link', { name: 'Change plan' }).count()).toBe(0);
    } finally {
      await call(base, 'PATCH', `/v1/organizations/${shop.organizationId}`, {
        token: shop.oat,
        body: {
          customer_portal_settings: { usage: { show: true }, subscription: { update_seats: true, update_plan: true } },
        },
      });
      await context.close();
    }
  });

  it('lists an order and downloads its invoice once the seller has its billing details', async () => {
    // A buyer of its own: the first test gave the shared customer billing details, which orders copy.
    const buyer = await fixtures.customer(shop.organizationId, { name: 'Invoice Buyer' });
    const product = await call(base, 'POST', '/v1/products/', {
      token: shop.oat,
      body: { name: 'Manual', prices: [{ amount_type: 'free' }] },
    });
    expect(product.status).toBe(201);
    const checkout = await call(base, 'POST', '/v1/checkouts/', {
      token: shop.oat,
      body: { products: [product.body.id], customer_id: buyer.id },
    });
    expect(checkout.status).toBe(201);
    const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
      body: {},
    });
    expect(confirmed.status).toBe(200);
    // The order comes with the fulfilment, after the confirm: up to 60 s.
    const order = await firstValue(
      async () =>
        (await call(base, 'GET', `/v1/orders/?checkout_id=${checkout.body.id}`, { token: shop.oat })).body.items[0],
      60_000,
      100,
    );
    const { token } = (
      await call(base, 'POST', '/v1/customer-sessions/', { token: shop.oat, body: { customer_id: buyer.id } })
    ).body;
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${base}/portal/${shop.slug}/orders?customer_session_token=${token}`);
      const row = page.getByRole('row').filter({ hasText: 'Manual' });
      await row.getByRole('link', { name: 'Invoice' }).click();
      await page.getByRole('button', { name: 'Prepare and download the invoice' }).click();
      // The order has no billing name and address yet: the API's refusal, in words.
      await page.getByText('Billing name and address are required').waitFor();

      const details = await call(base, 'PATCH', `/v1/orders/${order.id}`, {
        token: shop.oat,
        body: {
          billing_name: 'Dana Buyer GmbH',
          billing_address: { line1: '1 Main Street', city: 'Berlin', postal_code: '10115', country: 'DE' },
        },
      });
      expect(details.status).toBe(200);
      await page.goto(`${base}/portal/${shop.slug}/orders/${order.id}/invoice`);
      const [pdf] = await Promise.all([
        page.waitForResponse(r => r.url().includes(`/v1/orders/${order.id}/invoice/pdf`)),
        page.getByRole('button', { name: 'Prepare and download the invoice' }).click(),
      ]);
      expect(pdf.status()).toBe(200);
      expect(pdf.headers()['content-type']).toBe('application/pdf');
      expect(new URL(pdf.url()).origin).toBe(base);
    } finally {
      await context.close();
    }
  });

  it('shows a bought license key to copy and downloads a bought file on the Benefits tab', async () => {
    const buyer = await fixtures.customer(shop.organizationId, { name: 'Key Buyer' });
    const benefit = await call(base, 'POST', '/v1/benefits/', {
      token: shop.oat,
      body: { type: 'license_keys', description: 'Desktop app key', properties: { prefix: 'ACME', limit_usage: 10 } },
    });
    expect(benefit.status).toBe(201);
    const bytes = Buffer.from('Acme desktop app, installation guide.\n'.repeat(20));
    const file = await uploadFile(stack.production, shop, 'install-guide.txt', bytes);
    const files = await createBenefit(stack.production, shop, {
      type: 'downloadables',
      description: 'Guides',
      properties: { files: [file.id] },
    });
    const product = await call(base, 'POST', '/v1/products/', {
      token: shop.oat,
      body: { name: 'Desktop app', prices: [{ amount_type: 'free' }] },
    });
    const attached = await call(base, 'POST', `/v1/products/${product.body.id}/benefits`, {
      token: shop.oat,
      body: { benefits: [benefit.body.id, files.id] },
    });
    expect(attached.status).toBe(200);
    const checkout = await call(base, 'POST', '/v1/checkouts/', {
      token: shop.oat,
      body: { products: [product.body.id], customer_id: buyer.id },
    });
    await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, { body: {} });
    const { token } = (
      await call(base, 'POST', '/v1/customer-sessions/', { token: shop.oat, body: { customer_id: buyer.id } })
    ).body;
    // The license key is granted by a job after the order: up to 60 s.
    const key = await firstValue(
      async () => {
        await stack.production.environment.billing.jobs.drain();
        return (await call(base, 'GET', '/v1/customer-portal/license-keys/', { token })).body.items?.[0];
      },
      60_000,
      100,
    );
    expect(key.key).toMatch(/^ACME-/);
    await untilGranted(stack.production, shop, buyer.id, 2); // the file's grant too
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${base}/portal/${shop.slug}/subscriptions?customer_session_token=${token}`);
      await page.getByRole('link', { name: 'Benefits' }).click();
      const shown = page.getByLabel('License key');
      // The whole key in one selectable element (user-select: all): one click selects it for copying.
      expect((await shown.textContent())?.trim()).toBe(key.key);
      expect(await shown.evaluate((el: any) => el.ownerDocument.defaultView.getComputedStyle(el).userSelect)).toBe(
        'all',
      );
      // The file, through its signed link on this origin.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download install-guide.txt' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('install-guide.txt');
      expect(new URL(download.url()).origin).toBe(base);
      expect((await readFile((await download.path())!)).equals(bytes)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('deep-links into the cancel view with a return URL, and refuses cancel when the seller does not allow it', async () => {
    const sub = await subscription();
    const { token } = await session({ return_url: 'https://acme.example/account' });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${base}/portal/${shop.slug}/subscriptions/${sub.id}/cancel?customer_session_token=${token}`);
      await page.waitForURL(`${base}/portal/${shop.slug}/subscriptions/${sub.id}/cancel`);
      await page.getByRole('heading', { name: 'Cancel subscription' }).waitFor();
      expect(await page.getByRole('link', { name: 'Back to Acme Tools' }).getAttribute('href')).toBe(
        'https://acme.example/account',
      );

      // The seller turns customer cancellation off while the page is open: the API refuses, the page says why.
      const off = await call(base, 'PATCH', `/v1/organizations/${shop.organizationId}`, {
        token: shop.oat,
        body: {
          customer_portal_settings: {
            usage: { show: true },
            subscription: { update_seats: true, update_plan: true, cancel: false },
          },
        },
      });
      expect(off.status).toBe(200);
      await page.getByRole('button', { name: 'Cancel at period end' }).click();
      await page.getByText('Canceling the subscription is not allowed.').waitFor();
      expect(await page.getByRole('link', { name: 'Cancel subscription' }).count()).toBe(0);
      expect((await portalGet(sub.id, token)).cancel_at_period_end).toBe(false);
    } finally {
      await call(base, 'PATCH', `/v1/organizations/${shop.organizationId}`, {
        token: shop.oat,
        body: {
          customer_portal_settings: {
            usage: { show: true },
            subscription: { update_seats: true, update_plan: true, cancel: true },
          },
        },
      });
      await context.close();
    }
  });

  it('signs in without a session: e-mail, the code from the outbox, back to the page asked for', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${base}/portal/${shop.slug}/billing`);
      await page.waitForURL(
        `${base}/portal/${shop.slug}/request?return_to=${encodeURIComponent(`/portal/${shop.slug}/billing`)}`,
      );
      await page.getByLabel('Email').fill(customer.email);
      await page.getByRole('button', { name: 'Send me a code' }).click();
      await page.getByRole('heading', { name: 'Enter your code' }).waitFor();

      // The code's e-mail is sent by a job after the request: up to 60 s.
      const code =
        (await firstValue(
          async () => {
            await stack.production.environment.billing.jobs.drain();
            const rows = await stack.production.environment.billing.orm.em
              .fork()
              .execute(
                `select text_body from billing.outgoing_emails where to_address = ? and status = 'sent' order by created_at desc limit 1`,
                [customer.email],
              );
            return /^([A-Z0-9]{6})$/m.exec(rows[0]?.text_body ?? '')?.[1];
          },
          60_000,
          100,
        )) ?? '';
      expect(code).toHaveLength(6);

      await page.getByLabel('Code').fill('WRONG1');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('This code is invalid or has expired.').waitFor();
      await page.getByLabel('Code').fill(code);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${base}/portal/${shop.slug}/billing`);
      await page.getByText(`Signed in as ${customer.email}`).waitFor();
      await page.getByRole('link', { name: 'Subscriptions' }).click();
      await page.getByRole('row').filter({ hasText: 'Pro plan' }).first().waitFor();
    } finally {
      await context.close();
    }
  });
});
