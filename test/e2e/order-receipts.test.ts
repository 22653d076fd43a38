import { createPolar } from '@polar-sh/sdk-1/2026-10';
import { extractText, getDocumentProxy } from 'unpdf';
import { benefitHelpers } from '../support/benefits.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Order receipts (docs/receipts.md) and the portal's payment status, in the sandbox (test processor):
 * a paid order has a `receipt_number` and a signed link to a PDF rendered on opening, through SDK 1.0.1
 * (Core API and portal) and plain HTTP; a free order has neither (404 `ReceiptNotAllocated`); a link
 * that was tampered with, or signed for the invoice, is 403; another organization's or customer's order is 404.
 */
let stack: TestStack;
let owner: Tenant;
let base: string;
let helpers: ReturnType<typeof benefitHelpers>;

const SELLER = 'Receipt Seller Ltd';
let paid: { id: string; customer_id: string; receipt_number: string | null; invoice_number: string };
let free: { id: string; customer_id: string; receipt_number: string | null };
let otherTenantOrder: { id: string };

/** Opens a signed link as a browser would; the link names the public URL, the test stack another port. */
async function open(url: string) {
  const res = await fetch(url.replace(/^https?:\/\/[^/]+/, base));
  return { status: res.status, type: res.headers.get('content-type'), body: await res.arrayBuffer() };
}

async function pdfText(bytes: ArrayBuffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ');
}

async function sessionOf(customerId: string): Promise<string> {
  const res = await call(base, 'POST', '/v1/customer-sessions/', {
    token: owner.oat,
    body: { customer_id: customerId },
  });
  expect(res.status).toBe(201);
  return res.body.token;
}

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.sandbox.baseUrl;
  owner = await createTenant(stack.sandbox, { name: SELLER });
  helpers = benefitHelpers(() => ({ stack, owner, base }));
  const book = await helpers.product({ name: 'Field guide', recurring_interval: null });
  paid = await helpers.sell(book, 'reader@example.com');
  const gift = await helpers.product({ name: 'Sample', recurring_interval: null, prices: [{ amount_type: 'free' }] });
  free = await helpers.sell(gift, 'sampler@example.com');
  const other = await createTenant(stack.sandbox);
  const theirs = benefitHelpers(() => ({ stack, owner: other, base }));
  otherTenantOrder = await theirs.sell(
    await theirs.product({ name: 'Theirs', recurring_interval: null }),
    'x@example.com',
  );
}, 180_000);

describe('order receipts', () => {
  it('numbers a paid order and opens its receipt PDF through the SDK link', async () => {
    expect(paid.receipt_number).toBe(`RCPT-${paid.invoice_number}`);
    const polar = createPolar({ accessToken: owner.oat, baseUrl: base });
    const { url } = await polar.orders.receipt(paid.id);
    expect(url).toMatch(new RegExp(`/v1/orders/${paid.id}/receipt/pdf\\?expires=\\d+&signature=`));
    const file = await open(url);
    expect(file).toMatchObject({ status: 200, type: 'application/pdf' });
    const text = await pdfText(file.body);
    for (const expected of ['Receipt', `Receipt number: RCPT-${paid.invoice_number}`, SELLER, 'Field guide'])
      expect(text).toContain(expected);
    expect(text).toContain('Amount paid (card');
    expect(text).toContain('$15.00');
  });

  it('prints the refunds of a refunded order', async () => {
    const refund = await call(base, 'POST', '/v1/refunds/', {
      token: owner.oat,
      body: { order_id: paid.id, reason: 'customer_request', amount: 500 },
    });
    expect(refund.status).toBe(201);
    const link = await call(base, 'GET', `/v1/orders/${paid.id}/receipt`, { token: owner.oat });
    expect(link.status).toBe(200);
    const text = await pdfText((await open(link.body.url)).body);
    expect(text).toContain('Refunded -$5.00');
  });

  it('answers 404 ReceiptNotAllocated for a free order, which no payment settled', async () => {
    expect(free.receipt_number).toBeNull();
    const res = await call(base, 'GET', `/v1/orders/${free.id}/receipt`, { token: owner.oat });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ReceiptNotAllocated', detail: `No receipt allocated for order ${free.id}.` });
  });

  it("answers 404 for another organization's order and an unknown one", async () => {
    for (const id of [otherTenantOrder.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await call(base, 'GET', `/v1/orders/${id}/receipt`, { token: owner.oat });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ResourceNotFound');
    }
  });

  it('refuses a tampered link, and an invoice link on the receipt path, with 403', async () => {
    const { url } = (await call(base, 'GET', `/v1/orders/${paid.id}/receipt`, { token: owner.oat })).body;
    const tampered = new URL(url);
    tampered.searchParams.set('signature', 'A'.repeat(43));
    const refused = await call(base, 'GET', tampered.pathname + tampered.search);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('InvalidReceiptLink');
    expect((await call(base, 'GET', `/v1/orders/${paid.id}/invoice`, { token: owner.oat })).status).toBe(404);
    await call(base, 'PATCH', `/v1/orders/${paid.id}`, {
      token: owner.oat,
      body: {
        billing_name: 'Reader',
        billing_address: { country: 'FR', line1: '1 Rue', city: 'Paris', postal_code: '75001' },
      },
    });
    expect((await call(base, 'POST', `/v1/orders/${paid.id}/invoice`, { token: owner.oat })).status).toBe(202);
    const invoiceUrl = new URL(
      (await call(base, 'GET', `/v1/orders/${paid.id}/invoice`, { token: owner.oat })).body.url,
    );
    const crossed = await call(base, 'GET', `/v1/orders/${paid.id}/receipt/pdf${invoiceUrl.search}`);
    expect(crossed.status).toBe(403);
    expect(crossed.body).toEqual({
      error: 'InvalidReceiptLink',
      detail: 'This receipt link is invalid or has expired.',
    });
  });

  it("serves the customer's own receipt in the portal, and 404 for another customer's order", async () => {
    const portal = createPolar({ accessToken: await sessionOf(paid.customer_id), baseUrl: base });
    const { url } = await portal.customerPortal.orders.receipt(paid.id);
    expect(await open(url)).toMatchObject({ status: 200, type: 'application/pdf' });
    const res = await call(base, 'GET', `/v1/customer-portal/orders/${free.id}/receipt`, {
      token: await sessionOf(paid.customer_id),
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ResourceNotFound');
  });
});

describe('portal payment status', () => {
  it("answers the latest payment's status, and no_payment for an order without one", async () => {
    const portal = createPolar({ accessToken: await sessionOf(paid.customer_id), baseUrl: base });
    expect(await portal.customerPortal.orders.getPaymentStatus(paid.id)).toEqual({ status: 'succeeded', error: null });
    const freePortal = createPolar({ accessToken: await sessionOf(free.customer_id), baseUrl: base });
    expect(await freePortal.customerPortal.orders.getPaymentStatus(free.id)).toEqual({
      status: 'no_payment',
      error: null,
    });
  });

  it("answers 404 for another customer's order, and 401/403 without a customer session", async () => {
    const token = await sessionOf(paid.customer_id);
    const res = await call(base, 'GET', `/v1/customer-portal/orders/${free.id}/payment-status`, { token });
    expect(res.status).toBe(404);
    const merchant = await call(base, 'GET', `/v1/customer-portal/orders/${paid.id}/payment-status`, {
      token: owner.oat,
    });
    expect([401, 403]).toContain(merchant.status);
  });
});
