import { createPolar } from '@polar-sh/sdk-1/2026-10';
import { call, createTenant, type Tenant } from '../support/stack.js';
import { api, base, billingEm, customerWithCard, env, tenant, usePlanChangesStack } from './support/plan-changes.js';

/**
 * `POST /v1/orders` and `POST /v1/orders/{id}/finalize` (docs/selling.md#draft-orders) over real HTTP and
 * SDK 1.0.1, in the sandbox (test processor): a draft with its custom field answers and `order.created`;
 * finalize charges the customer's saved card once (`paid`, invoice number, `order.updated` and
 * `order.paid`), a declined card leaves a draft and 402, a second finalize 412; another organization's
 * order is 404 and unchanged; bad input is 422 at its field and writes nothing; off-session charges off is 403.
 */
usePlanChangesStack();

let productId: string;
let subscriptionProductId: string;

const eventsOf = (orderId: string) =>
  billingEm().execute<{ type: string; status: string }[]>(
    `select type, payload->>'status' as status from billing.events where payload->>'id' = ? and type like 'order.%' order by created_at, id`,
    [orderId],
  );
const ordersOfCustomer = async (customerId: string) =>
  (await api('GET', `/v1/orders/?customer_id=${customerId}`)).body.items as any[];

beforeAll(async () => {
  const on = await api('PATCH', `/v1/organizations/${tenant.organizationId}`, {
    feature_settings: { off_session_charges_enabled: true },
  });
  expect(on.status).toBe(200);
  const field = await api('POST', '/v1/custom-fields/', {
    type: 'text',
    slug: 'po-number',
    name: 'PO number',
    properties: { form_label: 'PO number' },
  });
  expect(field.status).toBe(201);
  const product = await api('POST', '/v1/products/', {
    name: 'Token pack',
    recurring_interval: null,
    prices: [{ amount_type: 'fixed', price_amount: 2500, price_currency: 'usd' }],
    attached_custom_fields: [{ custom_field_id: field.body.id, required: true }],
  });
  expect(product.status).toBe(201);
  productId = product.body.id;
  const monthly = await api('POST', '/v1/products/', {
    name: 'Monthly',
    recurring_interval: 'month',
    prices: [{ amount_type: 'fixed', price_amount: 900, price_currency: 'usd' }],
  });
  subscriptionProductId = monthly.body.id;
});

describe('POST /v1/orders', () => {
  it('creates a draft with its fields, no invoice number, and order.created (SDK 1.0.1)', async () => {
    const customer = await customerWithCard();
    const polar = createPolar({ accessToken: tenant.oat, baseUrl: base });
    const order = await polar.orders.create({
      customer_id: customer.id,
      product_id: productId,
      description: '5,000 tokens',
      metadata: { crm: 'deal-7' },
      custom_field_data: { 'po-number': 'PO-1', unknown: 'dropped' },
    });
    expect(order).toMatchObject({
      status: 'draft',
      paid: false,
      invoice_number: null,
      customer_id: customer.id,
      product_id: productId,
      billing_reason: 'purchase',
      subtotal_amount: 2500,
      total_amount: 2500,
      currency: 'usd',
      metadata: { crm: 'deal-7' },
      custom_field_data: { 'po-number': 'PO-1' },
    });
    expect(order.items.map(i => [i.label, i.amount])).toEqual([['5,000 tokens', 2500]]);
    expect(await eventsOf(order.id)).toEqual([{ type: 'order.created', status: 'draft' }]);
    const read = await api('GET', `/v1/orders/${order.id}`);
    expect(read.body).toMatchObject({ id: order.id, status: 'draft' });
  });

  it('takes a custom amount, 0 for free, and refuses one below the minimum', async () => {
    const customer = await customerWithCard();
    const custom = await api('POST', '/v1/orders/', { customer_id: customer.id, product_id: productId, amount: 1234 });
    expect(custom.status).toBe(201);
    expect(custom.body).toMatchObject({ subtotal_amount: 1234, total_amount: 1234 });
    const free = await api('POST', '/v1/orders/', { customer_id: customer.id, product_id: productId, amount: 0 });
    expect(free.body).toMatchObject({ status: 'draft', total_amount: 0 });
    // Nothing to charge: paid without a payment.
    const freePaid = await api('POST', `/v1/orders/${free.body.id}/finalize`);
    expect(freePaid.body).toMatchObject({ status: 'paid' });
    expect((await api('GET', `/v1/payments/?order_id=${free.body.id}`)).body.items).toEqual([]);
    const small = await api('POST', '/v1/orders/', { customer_id: customer.id, product_id: productId, amount: 10 });
    expect(small.status).toBe(422);
    expect(small.body.detail[0]).toMatchObject({ type: 'greater_than_equal', loc: ['body', 'amount'] });
  });

  it('answers bad input with 422 at its loc and writes nothing', async () => {
    const customer = await customerWithCard();
    const other: Tenant = await createTenant(env);
    const foreign = await call(base, 'POST', '/v1/customers/', { token: other.oat, body: { email: 'f@example.com' } });
    const cases: [unknown, (string | number)[]][] = [
      [{ customer_id: customer.id }, ['body', 'product_id']],
      [{ customer_id: 'nope', product_id: productId }, ['body', 'customer_id']],
      [{ customer_id: customer.id, product_id: productId, amount: -1 }, ['body', 'amount']],
      [{ customer_id: customer.id, product_id: subscriptionProductId }, ['body', 'product_id']],
      [{ customer_id: foreign.body.id, product_id: productId }, ['body', 'customer_id']],
      [{ customer_id: customer.id, product_id: '00000000-0000-4000-8000-000000000000' }, ['body', 'product_id']],
      [{ customer_id: customer.id, product_id: productId, currency: 'eur' }, ['body', 'currency']],
      [{ customer_id: customer.id, product_id: productId, units: 3 }, ['body', 'units']],
      [
        { customer_id: customer.id, product_id: productId, custom_field_data: { 'po-number': 7 } },
        ['body', 'custom_field_data', 'po-number'],
      ],
      [
        { customer_id: customer.id, product_id: productId, organization_id: tenant.organizationId },
        ['body', 'organization_id'],
      ],
    ];
    for (const [body, loc] of cases) {
      const res = await api('POST', '/v1/orders/', body);
      expect([JSON.stringify(body), res.status, res.body.detail?.[0]?.loc]).toEqual([JSON.stringify(body), 422, loc]);
    }
    expect(await ordersOfCustomer(customer.id)).toEqual([]);
  });

  it('is 403 OffSessionChargesNotEnabled for an organization without the switch', async () => {
    const other = await createTenant(env);
    const customer = await call(base, 'POST', '/v1/customers/', { token: other.oat, body: { email: 'o@example.com' } });
    const res = await call(base, 'POST', '/v1/orders/', {
      token: other.oat,
      body: { customer_id: customer.body.id, product_id: productId },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('OffSessionChargesNotEnabled');
  });
});

describe('POST /v1/orders/{id}/finalize', () => {
  it("charges the customer's saved card once: paid, an invoice number, order.updated and order.paid", async () => {
    const customer = await customerWithCard();
    const draft = await api('POST', '/v1/orders/', {
      customer_id: customer.id,
      product_id: productId,
      custom_field_data: { 'po-number': 'PO-9' },
    });
    const polar = createPolar({ accessToken: tenant.oat, baseUrl: base });
    const paid = await polar.orders.finalize(draft.body.id, {});
    expect(paid).toMatchObject({
      id: draft.body.id,
      status: 'paid',
      paid: true,
      invoice_number: expect.stringMatching(/-\d{4}$/),
      custom_field_data: { 'po-number': 'PO-9' },
    });
    expect(await eventsOf(draft.body.id)).toEqual([
      { type: 'order.created', status: 'draft' },
      { type: 'order.updated', status: 'paid' },
      { type: 'order.paid', status: 'paid' },
    ]);
    const payments = await api('GET', `/v1/payments/?order_id=${draft.body.id}`);
    expect(payments.body.items.map((p: any) => [p.status, p.amount])).toEqual([['succeeded', 2500]]);

    const again = await api('POST', `/v1/orders/${draft.body.id}/finalize`, {});
    expect(again.status).toBe(412);
    expect(again.body.error).toBe('OrderNotDraft');
    expect((await api('GET', `/v1/payments/?order_id=${draft.body.id}`)).body.items).toHaveLength(1);
  });

  it('leaves a declined order a draft with 402 PaymentFailed, and a good card pays it on the next try', async () => {
    const customer = await customerWithCard('pm_card_chargeCustomerFail');
    const draft = await api('POST', '/v1/orders/', {
      customer_id: customer.id,
      product_id: productId,
      custom_field_data: { 'po-number': 'PO-3' },
    });
    const declined = await api('POST', `/v1/orders/${draft.body.id}/finalize`);
    expect(declined.status).toBe(402);
    expect(declined.body).toEqual({ error: 'PaymentFailed', detail: 'Payment failed with reason: card_error.' });
    const after = await api('GET', `/v1/orders/${draft.body.id}`);
    expect(after.body).toMatchObject({ status: 'draft', invoice_number: null });
    expect((await eventsOf(draft.body.id)).map(e => e.type)).toEqual(['order.created']);

    const stranger = await customerWithCard();
    const notTheirs = await api('POST', `/v1/orders/${draft.body.id}/finalize`, {
      payment_method_id: stranger.defaultPaymentMethodId,
    });
    expect(notTheirs.status).toBe(402);
    expect(notTheirs.body.detail).toBe('Payment failed with reason: missing_payment_method.');
    const bad = await api('POST', `/v1/orders/${draft.body.id}/finalize`, { payment_method_id: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'payment_method_id']);

    // The customer adds a good card in the portal and makes it the default: the next finalize pays.
    const session = await api('POST', '/v1/customer-sessions/', { customer_id: customer.id });
    const added = await call(base, 'POST', '/v1/customer-portal/customers/me/payment-methods', {
      token: session.body.token,
      body: { confirmation_token_id: 'pm_card_visa', set_default: true, return_url: 'https://shop.example/' },
    });
    expect(added.status).toBe(201);
    const paid = await api('POST', `/v1/orders/${draft.body.id}/finalize`);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'paid', invoice_number: expect.any(String) });
    const payments = await api('GET', `/v1/payments/?order_id=${draft.body.id}&sorting=created_at`);
    expect(payments.body.items.map((p: any) => p.status)).toEqual(['failed', 'succeeded']);
  });

  it("answers another organization's order with 404 and leaves it a draft", async () => {
    const customer = await customerWithCard();
    const draft = await api('POST', '/v1/orders/', {
      customer_id: customer.id,
      product_id: productId,
      custom_field_data: { 'po-number': 'PO-4' },
    });
    const other = await createTenant(env);
    for (const [method, path] of [
      ['POST', `/v1/orders/${draft.body.id}/finalize`],
      ['GET', `/v1/orders/${draft.body.id}`],
    ]) {
      const res = await call(base, method, path, { token: other.oat });
      expect([path, res.status, res.body.error]).toEqual([path, 404, 'ResourceNotFound']);
    }
    expect((await api('GET', `/v1/orders/${draft.body.id}`)).body.status).toBe('draft');
    expect((await api('GET', `/v1/payments/?order_id=${draft.body.id}`)).body.items).toEqual([]);
  });
});
