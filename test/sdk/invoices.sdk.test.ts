// Order invoices with Polar's official SDK `@polar-sh/sdk` 0.48.1: a sale in the sandbox, then the
// invoice flow of the Core API and the customer portal (404 before generation, 422 without billing
// details, 202, a signed link that serves the PDF), the PDF read back with a PDF parser (unpdf), the
// billing edits Polar refuses, and a regeneration after an allowed edit replacing the PDF.
import type { Polar } from '@polar-sh/sdk';
import { MissingInvoiceBillingDetails } from '@polar-sh/sdk/models/errors/missinginvoicebillingdetails.js';
import { extractText, getDocumentProxy } from 'unpdf';
import { failure, ok, polarClient } from '../support/sdk.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { firstValue } from '../support/until.js';

let stack: TestStack;
let owner: Tenant;
let merchant: Polar;
let browser: Polar;
let base: string;

const SELLER = 'Acme Seller Inc';
const address = { line1: '10 Rue de Rivoli', postalCode: '75001', city: 'Paris', country: 'FR' } as const;

async function sell(price: Record<string, unknown>, email: string, discountId?: string) {
  const product = await ok(
    merchant.products.create({ name: `Item ${email}`, recurringInterval: null, prices: [price as never] }),
  );
  const checkout = await ok(
    merchant.checkouts.create({ products: [product.id], customerEmail: email, ...(discountId ? { discountId } : {}) }),
  );
  await ok(
    browser.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { confirmationTokenId: 'pm_card_visa', customerName: 'Jane Buyer' },
    }),
  );
  // The confirm answers `confirmed`; the order comes with the fulfilment, moments later (up to 60 s).
  const order = await firstValue(
    async () => (await ok(merchant.orders.list({ checkoutId: checkout.id }))).result.items[0],
    60_000,
  );
  if (order) return order;
  throw new Error(`no order for checkout ${checkout.id} within 60 s`);
}

/** The text of a PDF, as a reader extracts it. */
async function pdfText(bytes: ArrayBuffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\u00a0/g, ' ');
}

/**
 * Follows a signed link without any credential, as a browser would. The link is built on the
 * environment's PUBLIC_URL; the test stack listens on another port, so the origin is swapped.
 */
async function download(url: string) {
  const res = await fetch(url.replace(/^https?:\/\/[^/]+/, base));
  return { status: res.status, type: res.headers.get('content-type'), body: await res.arrayBuffer() };
}

beforeAll(async () => {
  stack = await sharedTestStack();
  owner = await createTenant(stack.sandbox, { name: SELLER });
  merchant = polarClient(stack.sandbox, owner.oat);
  browser = polarClient(stack.sandbox);
  base = stack.sandbox.baseUrl;
}, 120_000);

describe('order invoices', () => {
  it('404 before generation, 422 without billing details, then 202 and a signed link to the PDF', async () => {
    const discount = await ok(
      merchant.discounts.create({ name: 'Launch 10%', type: 'percentage', duration: 'once', basisPoints: 1000 }),
    );
    const order = await sell(
      { amountType: 'fixed', priceAmount: 12345, priceCurrency: 'usd' },
      'usd@example.com',
      discount.id,
    );
    expect(order).toMatchObject({ subtotalAmount: 12345, discountAmount: 1235, totalAmount: 11110 });

    const missing = await call(base, 'GET', `/v1/orders/${order.id}/invoice`, { token: owner.oat });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'InvoiceDoesNotExist', detail: `No invoice exists for order ${order.id}.` });

    const noDetails = await failure(merchant.orders.generateInvoice({ id: order.id }), MissingInvoiceBillingDetails);
    expect(noDetails.detail).toBe('Billing name and address are required to generate an invoice for this order.');
    expect((await ok(merchant.orders.get({ id: order.id }))).isInvoiceGenerated).toBe(false);

    await ok(
      merchant.orders.update({
        id: order.id,
        orderUpdate: { billingName: 'Jane Buyer SARL', billingAddress: address },
      }),
    );
    const generated = await call(base, 'POST', `/v1/orders/${order.id}/invoice`, { token: owner.oat });
    expect(generated.status).toBe(202);
    expect((await ok(merchant.orders.get({ id: order.id }))).isInvoiceGenerated).toBe(true);

    const { url } = await ok(merchant.orders.invoice({ id: order.id }));
    expect(url).toMatch(new RegExp(`^https?://[^/]+/v1/orders/${order.id}/invoice/pdf\\?expires=\\d+&signature=`));
    const pdf = await download(url);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    const text = await pdfText(pdf.body);
    for (const expected of [
      SELLER,
      'Jane Buyer SARL',
      '10 Rue de Rivoli',
      '75001 Paris',
      'France',
      'usd@example.com',
      `Invoice number: ${order.invoiceNumber}`,
      'Subtotal',
      '$123.45',
      'Discount (Launch 10%)',
      '-$12.35',
      '$111.10',
    ])
      expect(text).toContain(expected);

    const forged = await download(url.replace(/signature=[^&]+/, 'signature=AAAA'));
    expect(forged.status).toBe(403);
    const expired = await download(url.replace(/expires=\d+/, 'expires=1000'));
    expect(expired.status).toBe(403);
  });

  it('refuses moving the country, allows a name change, and regenerating replaces the PDF', async () => {
    const order = await sell({ amountType: 'fixed', priceAmount: 5000, priceCurrency: 'usd' }, 'edit@example.com');
    await ok(
      merchant.orders.update({ id: order.id, orderUpdate: { billingName: 'First Name', billingAddress: address } }),
    );
    await ok(merchant.orders.generateInvoice({ id: order.id }));
    const first = (await ok(merchant.orders.invoice({ id: order.id }))).url;
    expect(await pdfText((await download(first)).body)).toContain('First Name');

    const moved = await call(base, 'PATCH', `/v1/orders/${order.id}`, {
      token: owner.oat,
      body: { billing_address: { ...address, postal_code: '10115', city: 'Berlin', country: 'DE' } },
    });
    expect(moved.status).toBe(422);
    expect(moved.body.detail[0]).toMatchObject({
      loc: ['body', 'billing_address', 'country'],
      msg: 'Country cannot be changed',
    });

    const events = async () =>
      (
        await stack.sandbox.environment.billing.orm.em
          .fork()
          .getConnection()
          .execute<{ n: string }[]>(
            `select count(*) as n from billing.events where type = 'order.updated' and payload->>'id' = ?`,
            [order.id],
          )
      )[0].n;
    const before = await events();
    await ok(merchant.orders.generateInvoice({ id: order.id }));
    expect(await events()).toBe(before);
    expect((await download(first)).status).toBe(200);

    await ok(merchant.orders.update({ id: order.id, orderUpdate: { billingName: 'Second Name' } }));
    await ok(merchant.orders.generateInvoice({ id: order.id }));
    const second = (await ok(merchant.orders.invoice({ id: order.id }))).url;
    const text = await pdfText((await download(second)).body);
    expect(text).toContain('Second Name');
    expect(text).not.toContain('First Name');
    expect((await download(first)).status).toBe(403);
  });

  it('prints a JPY order in yen, with no minor units', async () => {
    const order = await sell({ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'jpy' }, 'yen@example.com');
    await ok(
      merchant.orders.update({
        id: order.id,
        orderUpdate: {
          billingName: 'Taro Yamada',
          billingAddress: { line1: '1-1 Chiyoda', city: 'Tokyo', postalCode: '100-0001', country: 'JP' },
        },
      }),
    );
    await ok(merchant.orders.generateInvoice({ id: order.id }));
    const text = await pdfText((await download((await ok(merchant.orders.invoice({ id: order.id }))).url)).body);
    expect(text).toContain('¥1,500');
    expect(text).not.toContain('¥15.00');
    expect(text).toContain('Japan');
  });

  it("serves the customer portal's invoice to the customer, and only its own", async () => {
    const order = await sell({ amountType: 'fixed', priceAmount: 2500, priceCurrency: 'usd' }, 'portal@example.com');
    const other = await sell({ amountType: 'fixed', priceAmount: 2500, priceCurrency: 'usd' }, 'someone@example.com');
    const { token: customerSession } = await ok(merchant.customerSessions.create({ customerId: order.customerId }));
    const portal = polarClient(stack.sandbox);

    const missing = await call(base, 'GET', `/v1/customer-portal/orders/${order.id}/invoice`, {
      token: customerSession,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('InvoiceDoesNotExist');
    await failure(
      portal.customerPortal.orders.generateInvoice({ customerSession }, { id: order.id }),
      MissingInvoiceBillingDetails,
    );

    await ok(
      merchant.orders.update({ id: order.id, orderUpdate: { billingName: 'Portal Buyer', billingAddress: address } }),
    );
    await ok(portal.customerPortal.orders.generateInvoice({ customerSession }, { id: order.id }));
    const { url } = await ok(portal.customerPortal.orders.invoice({ customerSession }, { id: order.id }));
    const text = await pdfText((await download(url)).body);
    expect(text).toContain('Portal Buyer');
    expect(text).toContain(SELLER);

    const foreign = await call(base, 'POST', `/v1/customer-portal/orders/${other.id}/invoice`, {
      token: customerSession,
    });
    expect(foreign.status).toBe(404);
  });

  it('409 for a void or draft order; an unknown order is 404', async () => {
    const order = await sell({ amountType: 'fixed', priceAmount: 700, priceCurrency: 'usd' }, 'void@example.com');
    await stack.sandbox.environment.billing.orm.em
      .fork()
      .getConnection()
      .execute(
        `update billing.orders set status = 'void', billing_name = 'X', billing_address = '{"country":"FR"}' where id = ?`,
        [order.id],
      );
    const voided = await call(base, 'POST', `/v1/orders/${order.id}/invoice`, { token: owner.oat });
    expect(voided.status).toBe(409);
    expect(voided.body).toEqual({
      error: 'OrderNotEligibleForInvoice',
      detail: `Order ${order.id} is not eligible for invoice generation (current status: void).`,
    });
    const unknown = await call(base, 'POST', '/v1/orders/00000000-0000-4000-8000-000000000000/invoice', {
      token: owner.oat,
    });
    expect(unknown.status).toBe(404);
  });

  it("lets the customer set its own order's billing details from the portal (PATCH), and only its own", async () => {
    const order = await sell({ amountType: 'fixed', priceAmount: 1200, priceCurrency: 'usd' }, 'self@example.com');
    const other = await sell({ amountType: 'fixed', priceAmount: 1200, priceCurrency: 'usd' }, 'else@example.com');
    const { token } = await ok(merchant.customerSessions.create({ customerId: order.customerId }));
    const body = {
      billing_name: 'Self Buyer',
      billing_address: { line1: '1 Main St', postal_code: '10001', city: 'New York', state: 'US-NY', country: 'US' },
    };
    const updated = await call(base, 'PATCH', `/v1/customer-portal/orders/${order.id}`, { token, body });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id: order.id,
      billing_name: 'Self Buyer',
      billing_address: { city: 'New York' },
    });
    const seen = await call(base, 'GET', `/v1/orders/${order.id}`, { token: owner.oat });
    expect(seen.body).toMatchObject({ billing_name: 'Self Buyer', billing_address: { line1: '1 Main St' } });
    // With the details set the customer can generate the invoice.
    expect((await call(base, 'POST', `/v1/customer-portal/orders/${order.id}/invoice`, { token })).status).toBe(202);

    const foreign = await call(base, 'PATCH', `/v1/customer-portal/orders/${other.id}`, { token, body });
    expect(foreign.status).toBe(404);
    const untouched = await call(base, 'GET', `/v1/orders/${other.id}`, { token: owner.oat });
    expect(untouched.body.billing_name).not.toBe('Self Buyer');
    // A merchant's token is not a customer session.
    expect(
      (await call(base, 'PATCH', `/v1/customer-portal/orders/${order.id}`, { token: owner.oat, body })).status,
    ).toBe(401);
  });
});
