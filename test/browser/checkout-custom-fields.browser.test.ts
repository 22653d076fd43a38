import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * The hosted checkout asks the product's custom fields (docs/custom-fields.md, docs/web-pages.md) in
 * headless Chromium: with JavaScript off, a buyer answers the required ones and pays, and the order holds
 * the answers; with JavaScript on, the confirm's 422 for a required field left empty (the browser's own
 * check switched off, as an old browser would) is shown beside that field, and answering it completes
 * the purchase.
 */
jest.setTimeout(90_000);

let stack: TestStack;
let base: string;
let owner: Tenant;
let browser: Browser;
let productId: string;

const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: owner.oat, body });

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.sandbox.baseUrl;
  owner = await createTenant(stack.sandbox, { name: 'Field Shop' });
  browser = await launchChromium();
  const fields = [
    { type: 'text', slug: 'company', name: 'Company', properties: { form_label: 'Company name' } },
    { type: 'number', slug: 'seats', name: 'Seats', properties: { form_label: 'Seats', ge: 1, le: 50 } },
    { type: 'date', slug: 'start', name: 'Start', properties: { form_label: 'Start date' } },
    { type: 'checkbox', slug: 'terms', name: 'Terms', properties: { form_label: 'I accept the terms' } },
    {
      type: 'select',
      slug: 'size',
      name: 'Size',
      properties: {
        form_label: 'Size',
        options: [
          { value: 's', label: 'Small' },
          { value: 'l', label: 'Large' },
        ],
      },
    },
  ];
  const ids: string[] = [];
  for (const body of fields) {
    const created = await api('POST', '/v1/custom-fields/', body);
    expect(created.status).toBe(201);
    ids.push(created.body.id);
  }
  const product = await api('POST', '/v1/products/', {
    name: 'Field Kit',
    recurring_interval: null,
    prices: [{ amount_type: 'fixed', price_amount: 1500, price_currency: 'usd' }],
    attached_custom_fields: ids.map((id, i) => ({ custom_field_id: id, required: i !== 4 })),
  });
  expect(product.status).toBe(201);
  productId = product.body.id;
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function openCheckout(page: Page): Promise<string> {
  const created = await api('POST', '/v1/checkouts/', { products: [productId] });
  expect(created.status).toBe(201);
  await page.goto(`${base}${new URL(created.body.url).pathname}`);
  await page.getByRole('heading', { name: 'Field Kit' }).waitFor();
  return created.body.id as string;
}

async function answerAll(page: Page, email: string) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Country (two letters, e.g. US)').fill('US');
  await page.getByLabel('Company name').fill('Acme GmbH');
  await page.getByLabel('Seats').fill('12');
  await page.getByLabel('Start date').fill('2027-03-01');
  await page.getByLabel('I accept the terms').check();
  await page.getByLabel('Size').selectOption('l');
  await page.getByLabel('Card (test payment method)').fill('pm_card_visa');
}

async function orderOf(checkoutId: string) {
  const checkout = await api('GET', `/v1/checkouts/${checkoutId}`);
  expect(checkout.body.status).toBe('succeeded');
  const orders = await api('GET', `/v1/orders/?checkout_id=${checkoutId}`);
  expect(orders.body.items).toHaveLength(1);
  return orders.body.items[0];
}

describe('custom fields on the hosted checkout', () => {
  it('without JavaScript: the buyer answers them and pays; the order has the answers', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    let checkoutId: string;
    try {
      checkoutId = await openCheckout(page);
      expect(await page.getByLabel('Company name').getAttribute('required')).not.toBeNull();
      expect(await page.getByLabel('Seats').getAttribute('max')).toBe('50');
      await answerAll(page, 'nojs.buyer@example.com');
      await page.getByRole('button', { name: 'Pay' }).click();
      await page.getByText('Your order is complete.').waitFor({ timeout: 20_000 });
    } finally {
      await context.close();
    }
    expect((await orderOf(checkoutId)).custom_field_data).toEqual({
      company: 'Acme GmbH',
      seats: 12,
      start: '2027-03-01T00:00:00Z',
      terms: true,
      size: 'l',
    });
  });

  it('with JavaScript: a required field left empty shows the 422 beside it; answered, the purchase completes', async () => {
    const context = await browser.newContext({ javaScriptEnabled: true });
    const page = await context.newPage();
    let checkoutId: string;
    try {
      checkoutId = await openCheckout(page);
      await answerAll(page, 'js.buyer@example.com');
      await page.getByLabel('Company name').fill('');
      // The browser would stop an empty required field itself; switched off, the server's check answers.
      await page.locator('form.stack').evaluate(form => form.setAttribute('novalidate', ''));
      await page.getByRole('button', { name: 'Pay' }).click();
      const problem = page.locator('#cf-company-error');
      await problem.waitFor();
      expect(await problem.textContent()).toBe('This field is required.');
      expect(await page.getByLabel('Company name').getAttribute('aria-invalid')).toBe('true');
      // What was answered is still there; nothing was charged.
      expect(await page.getByLabel('Seats').inputValue()).toBe('12');
      expect(await page.getByLabel('Size').inputValue()).toBe('l');
      expect((await api('GET', `/v1/checkouts/${checkoutId}`)).body.status).toBe('open');

      await page.getByLabel('Company name').fill('Beta SARL');
      await page.getByLabel('Card (test payment method)').fill('pm_card_visa');
      await page.getByRole('button', { name: 'Pay' }).click();
      await page.getByText('Your order is complete.').waitFor({ timeout: 20_000 });
    } finally {
      await context.close();
    }
    expect((await orderOf(checkoutId)).custom_field_data).toMatchObject({ company: 'Beta SARL', seats: 12 });
  });
});
