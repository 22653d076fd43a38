import { extractText, getDocumentProxy } from 'unpdf';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Where a taxed sale is shown (docs/tax.md#invoices): the invoice PDF of a German seller with its legal
 * name, address and VAT id, the buyer's VAT id, a line per rate and the reverse-charge mention; and the
 * hosted checkout page's net, tax and total, and a known customer's details prefilled. Through the REST
 * API and the web page, in the sandbox.
 */
let stack: TestStack;
let seller: Tenant;
let base: string;

const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: seller.oat, body });
const BERLIN = { line1: 'Unter den Linden 1', postal_code: '10117', city: 'Berlin', country: 'DE' };
const PARIS = { line1: '10 Rue de Rivoli', postal_code: '75001', city: 'Paris', country: 'FR' };
const REVERSE_CHARGE = 'Reverse charge: VAT to be accounted for by the recipient (Article 196, Directive 2006/112/EC)';

let productId: string;
let n = 0;

async function checkout(details: Record<string, unknown>) {
  const res = await api('POST', '/v1/checkouts/', {
    products: [productId],
    customer_email: `invoice-${++n}@example.com`,
    ...details,
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; client_secret: string };
}

async function invoiceText(details: Record<string, unknown>): Promise<string> {
  const k = await checkout({ customer_billing_name: 'Buyer', ...details });
  const confirmed = await call(base, 'POST', `/v1/checkouts/client/${k.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_visa' },
  });
  expect(confirmed.status).toBe(200);
  const order = (await api('GET', `/v1/orders/?checkout_id=${k.id}`)).body.items[0];
  expect((await api('POST', `/v1/orders/${order.id}/invoice`)).status).toBe(202);
  const { url } = (await api('GET', `/v1/orders/${order.id}/invoice`)).body;
  const pdf = await fetch(url.replace(/^https?:\/\/[^/]+/, base));
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await pdf.arrayBuffer())), {
    mergePages: true,
  });
  return text.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ');
}

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.sandbox.baseUrl;
  seller = await createTenant(stack.sandbox);
  const res = await api('PATCH', `/v1/organizations/${seller.organizationId}`, {
    country: 'DE',
    tax_settings: { legal_name: 'Steuerbeispiel GmbH', legal_address: BERLIN, tax_id: 'DE123456788' },
  });
  expect(res.status).toBe(200);
  const product = await api('POST', '/v1/products/', {
    name: 'Handbook',
    prices: [{ amount_type: 'fixed', price_currency: 'eur', price_amount: 10000 }],
  });
  productId = product.body.id;
}, 120_000);

describe('invoices', () => {
  it("prints the seller's legal name, address and VAT id, and the VAT an inclusive price includes", async () => {
    const text = await invoiceText({ customer_billing_address: BERLIN });
    for (const expected of ['Steuerbeispiel GmbH', 'Unter den Linden 1', '10117 Berlin', 'Tax ID: DE123456788'])
      expect(text).toContain(expected);
    expect(text).toContain('Total €100.00');
    // 100.00 ÷ 1.19 = 84.03 net; 15.97 VAT.
    expect(text).toContain('Including VAT 19 % €15.97');
    expect(text).not.toContain('Reverse charge');
  });

  it("prints the buyer's VAT id and the reverse-charge mention for an EU business", async () => {
    const text = await invoiceText({
      customer_billing_address: PARIS,
      customer_tax_id: 'FR11123456782',
      is_business_customer: true,
    });
    expect(text).toContain('Tax ID: FR11123456782');
    expect(text).toContain(REVERSE_CHARGE);
    expect(text).toContain('Total €100.00');
  });

  it("follows the organization's legal name when it changes", async () => {
    await api('PATCH', `/v1/organizations/${seller.organizationId}`, { tax_settings: { legal_name: 'Neuer Name AG' } });
    const text = await invoiceText({ customer_billing_address: BERLIN });
    expect(text).toContain('Neuer Name AG');
    expect(text).not.toContain('Steuerbeispiel GmbH');
  });
});

describe('the hosted checkout page', () => {
  const page = async (k: { client_secret: string }) => (await call(base, 'GET', `/checkout/${k.client_secret}`)).text;

  it('shows net, the VAT line and the total, and the mention for a reverse charge', async () => {
    const consumer = await page(await checkout({ customer_billing_address: BERLIN }));
    expect(consumer).toMatch(/<td>Net<\/td><td data-amount="net">€84\.03<\/td>/);
    expect(consumer).toMatch(/<td>VAT 19 %<\/td><td data-amount="tax">€15\.97<\/td>/);
    expect(consumer).toMatch(/data-amount="total">€100\.00/);
    const business = await page(await checkout({ customer_billing_address: PARIS, customer_tax_id: 'FR11123456782' }));
    expect(business).toContain(REVERSE_CHARGE);
    const unknown = await page(await checkout({}));
    expect(unknown).toContain('with your billing address');
  });

  it("starts a known customer's checkout from their billing address and tax id (Polar's prefill)", async () => {
    const customer = await api('POST', '/v1/customers/', {
      email: 'returning@example.com',
      billing_address: PARIS,
      tax_id: 'FR11123456782',
    });
    expect(customer.status).toBe(201);
    const k = await checkout({ customer_id: customer.body.id });
    const shown = await api('GET', `/v1/checkouts/${k.id}`);
    expect(shown.body).toMatchObject({
      customer_billing_address: { country: 'FR', postal_code: '75001' },
      customer_tax_id: 'FR11123456782',
      tax_amount: 0,
      total_amount: 10000,
    });
    expect(shown.body.tax_breakdown[0].taxability_reason).toBe('reverse_charge');
  });
});
