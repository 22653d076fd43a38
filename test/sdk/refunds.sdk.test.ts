// Refunds with Polar's official SDK `@polar-sh/sdk` 0.48.1 (which zod-validates every response): a sale
// made through a checkout in the sandbox (test processor), then full and partial refunds, the order's
// status and amounts after each, the processor's refund rows, Polar's refusals, and the events.
import type { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { RefundedAlready } from '@polar-sh/sdk/models/errors/refundedalready.js';
import { SDKError } from '@polar-sh/sdk/models/errors/sdkerror.js';
import { failure, ok, polarClient } from '../support/sdk.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

let stack: TestStack;
let owner: Tenant;
let merchant: Polar;
let browser: Polar;
let oneTime: string;
let monthly: string;
let yen: string;
let free: string;

const sql = <T>(text: string, values: unknown[] = []) =>
  stack.sandbox.environment.billing.orm.em.fork().getConnection().execute<T[]>(text, values);

/** A checkout confirmed with `pm_card_visa`; the order it made. */
async function sell(productId: string, email: string) {
  const checkout = await ok(merchant.checkouts.create({ products: [productId], customerEmail: email }));
  await ok(
    browser.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { confirmationTokenId: 'pm_card_visa', customerName: 'Ada Buyer' },
    }),
  );
  const orders = await ok(merchant.orders.list({ checkoutId: checkout.id }));
  expect(orders.result.items).toHaveLength(1);
  return { checkoutId: checkout.id, order: orders.result.items[0] };
}

/** The test processor's refunds of the charge a checkout made. */
const processorRefunds = (checkoutId: string) =>
  sql<{ amount: string; reason: string | null; status: string }>(
    `select r.amount, r.reason, r.status from billing.test_processor_refunds r
       join billing.test_processor_charges c on c.id = r.charge_id
      where c.metadata->>'checkout_id' = ? order by r.created_at`,
    [checkoutId],
  );

beforeAll(async () => {
  stack = await sharedTestStack();
  owner = await createTenant(stack.sandbox);
  merchant = polarClient(stack.sandbox, owner.oat);
  browser = polarClient(stack.sandbox);
  const create = async (name: string, recurringInterval: 'month' | null, price: Record<string, unknown>) =>
    (await ok(merchant.products.create({ name, recurringInterval, prices: [price as never] }))).id;
  oneTime = await create('Lifetime licence', null, { amountType: 'fixed', priceAmount: 5000, priceCurrency: 'usd' });
  monthly = await create('Pro monthly', 'month', { amountType: 'fixed', priceAmount: 1900, priceCurrency: 'usd' });
  yen = await create('Yen licence', null, { amountType: 'fixed', priceAmount: 1000, priceCurrency: 'jpy' });
  free = await create('Free download', null, { amountType: 'free' });
}, 120_000);

describe('refunds with the SDK', () => {
  it('refunds part, then the rest: statuses, amounts, the processor rows, then RefundedAlready', async () => {
    const { checkoutId, order } = await sell(oneTime, 'partial@example.com');
    const partial = await ok(
      merchant.refunds.create({
        orderId: order.id,
        reason: 'customer_request',
        amount: 2000,
        comment: 'Asked nicely',
        metadata: { ticket: 'T-1' },
      }),
    );
    expect(partial).toMatchObject({
      status: 'succeeded',
      reason: 'customer_request',
      amount: 2000,
      taxAmount: 0,
      currency: 'usd',
      orderId: order.id,
      customerId: order.customerId,
      subscriptionId: null,
      organizationId: owner.organizationId,
      revokeBenefits: false,
      metadata: { ticket: 'T-1' },
      dispute: null,
    });
    expect(await ok(merchant.orders.get({ id: order.id }))).toMatchObject({
      status: 'partially_refunded',
      paid: true,
      refundedAmount: 2000,
      refundableAmount: 3000,
    });

    const tooHigh = await failure(
      merchant.refunds.create({ orderId: order.id, reason: 'other', amount: 3001 }),
      HTTPValidationError,
    );
    expect(tooHigh.detail?.[0]).toMatchObject({
      loc: ['body', 'amount'],
      msg: 'Refund amount exceeds refundable amount',
    });

    const rest = await ok(
      merchant.refunds.create({ orderId: order.id, reason: 'duplicate', amount: 3000, revokeBenefits: true }),
    );
    expect(rest).toMatchObject({ status: 'succeeded', amount: 3000, revokeBenefits: true });
    expect(await ok(merchant.orders.get({ id: order.id }))).toMatchObject({
      status: 'refunded',
      refundedAmount: 5000,
      refundableAmount: 0,
    });
    expect(await processorRefunds(checkoutId)).toEqual([
      { amount: '2000', reason: 'requested_by_customer', status: 'succeeded' },
      { amount: '3000', reason: 'duplicate', status: 'succeeded' },
    ]);

    const again = await failure(
      merchant.refunds.create({ orderId: order.id, reason: 'other', amount: 1 }),
      RefundedAlready,
    );
    expect(again.detail).toBe(`Order is already fully refunded: ${order.id}`);

    const listed = await ok(merchant.refunds.list({ orderId: order.id, sorting: ['amount'] }));
    expect(listed.result.items.map(r => r.amount)).toEqual([2000, 3000]);
    expect(listed.result.pagination.totalCount).toBe(2);
    expect((await ok(merchant.refunds.list({ orderId: order.id, succeeded: false }))).result.items).toEqual([]);
  });

  it('records refund.created, order.updated and order.refunded with the refund', async () => {
    const { order } = await sell(oneTime, 'events@example.com');
    const refund = await ok(merchant.refunds.create({ orderId: order.id, reason: 'other', amount: 500 }));
    const events = await sql<{ type: string; payload: Record<string, any> }>(
      `select type, payload from billing.events where organization_id = ? and created_at >= (
         select created_at from billing.refunds where id = ?) and (payload->>'id' = ? or payload->>'id' = ?)
       order by created_at, id`,
      [owner.organizationId, refund.id, refund.id, order.id],
    );
    expect(events.map(e => e.type)).toEqual(['refund.created', 'order.updated', 'order.refunded']);
    expect(events[0].payload).toMatchObject({ id: refund.id, amount: 500, status: 'succeeded', dispute: null });
    expect(events[2].payload).toMatchObject({ status: 'partially_refunded', refunded_amount: 500 });
  });

  it('refunds a JPY order in yen (no scaling by 100)', async () => {
    const { checkoutId, order } = await sell(yen, 'yen@example.com');
    expect(order).toMatchObject({ currency: 'jpy', totalAmount: 1000 });
    await ok(merchant.refunds.create({ orderId: order.id, reason: 'other', amount: 400 }));
    expect(await ok(merchant.orders.get({ id: order.id }))).toMatchObject({
      status: 'partially_refunded',
      refundedAmount: 400,
      refundableAmount: 600,
    });
    expect((await processorRefunds(checkoutId))[0]).toMatchObject({ amount: '400' });
  });

  it("refuses Polar's way: a 0 order, an unknown order, revoking a subscription's benefits, bad input", async () => {
    const { order: zero } = await sell(free, 'free@example.com');
    const nothing = await failure(
      merchant.refunds.create({ orderId: zero.id, reason: 'other', amount: 1 }),
      HTTPValidationError,
    );
    expect(nothing.detail?.[0].loc).toEqual(['body', 'amount']);

    const unknown = await failure(
      merchant.refunds.create({ orderId: '00000000-0000-4000-8000-000000000000', reason: 'other', amount: 1 }),
      HTTPValidationError,
    );
    expect(unknown.detail?.[0]).toMatchObject({ loc: ['body', 'order_id'], msg: 'Order not found' });

    const { order: recurring } = await sell(monthly, 'sub@example.com');
    const revoke = await failure(
      merchant.refunds.create({ orderId: recurring.id, reason: 'other', amount: 100, revokeBenefits: true }),
      SDKError,
    );
    expect(revoke.statusCode).toBe(400);
    expect(JSON.parse(revoke.body)).toEqual({
      error: 'RevokeSubscriptionBenefitsProhibited',
      detail: 'Subscription benefits can only be revoked upon cancellation',
    });
    expect((await ok(merchant.orders.get({ id: recurring.id }))).status).toBe('paid');

    const base = stack.sandbox.baseUrl;
    // An order that was never charged (pending, no succeeded payment): Polar's RefundUnknownPayment.
    const { order: unpaid } = await sell(oneTime, 'unpaid@example.com');
    await sql(`update billing.payments set order_id = null where order_id = ?`, [unpaid.id]);
    await sql(`update billing.orders set status = 'pending' where id = ?`, [unpaid.id]);
    const uncharged = await call(base, 'POST', '/v1/refunds/', {
      token: owner.oat,
      body: { order_id: unpaid.id, reason: 'other', amount: 100 },
    });
    expect(uncharged.status).toBe(404);
    expect(uncharged.body).toEqual({
      error: 'RefundUnknownPayment',
      detail: `Refund issued for unknown order: ${unpaid.id}`,
    });

    for (const body of [
      { order_id: recurring.id, reason: 'other', amount: 0 },
      { order_id: recurring.id, reason: 'dispute_prevention', amount: 1 },
      { order_id: recurring.id, reason: 'other' },
    ]) {
      const res = await call(base, 'POST', '/v1/refunds/', { token: owner.oat, body });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('RequestValidationError');
    }
    expect(await sql(`select 1 from billing.refunds where order_id = ?`, [recurring.id])).toEqual([]);
  });

  it('two refunds at the same moment never give back more than the order: one of them is refused', async () => {
    const { checkoutId, order } = await sell(oneTime, 'race@example.com');
    const base = stack.sandbox.baseUrl;
    const answers = await Promise.all(
      [0, 1].map(() =>
        call(base, 'POST', '/v1/refunds/', {
          token: owner.oat,
          body: { order_id: order.id, reason: 'other', amount: 3000 },
        }),
      ),
    );
    expect(answers.map(a => a.status).sort()).toEqual([201, 422]);
    expect(await ok(merchant.orders.get({ id: order.id }))).toMatchObject({
      status: 'partially_refunded',
      refundedAmount: 3000,
    });
    expect(await processorRefunds(checkoutId)).toHaveLength(1);
  });

  it('reads refunds over GraphQL with the list filters', async () => {
    const { order } = await sell(oneTime, 'graphql@example.com');
    const refund = await ok(merchant.refunds.create({ orderId: order.id, reason: 'other', amount: 100 }));
    const res = await call(stack.sandbox.baseUrl, 'POST', '/graphql', {
      token: owner.oat,
      body: {
        query: `query($o: [ID!]) { refunds(filter: { orderId: $o, succeeded: true }) {
          items { id amount taxAmount status reason orderId revokeBenefits } pagination { totalCount } } }`,
        variables: { o: [order.id] },
      },
    });
    expect(res.body.data.refunds).toEqual({
      items: [
        {
          id: refund.id,
          amount: 100,
          taxAmount: 0,
          status: 'succeeded',
          reason: 'other',
          orderId: order.id,
          revokeBenefits: false,
        },
      ],
      pagination: { totalCount: 1 },
    });
  });

  it("needs refunds:write to create and refunds:read to list; another organization's order is unknown", async () => {
    const { order } = await sell(oneTime, 'scopes@example.com');
    const other = await createTenant(stack.sandbox);
    const foreign = await call(stack.sandbox.baseUrl, 'POST', '/v1/refunds/', {
      token: other.oat,
      body: { order_id: order.id, reason: 'other', amount: 1 },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail[0].loc).toEqual(['body', 'order_id']);
    const listed = await call(stack.sandbox.baseUrl, 'GET', `/v1/refunds/?order_id=${order.id}`, { token: other.oat });
    expect(listed.body.items).toEqual([]);

    const admin = stack.sandbox.admin;
    const readOnly = await admin.createOrganizationAccessToken(owner.organizationId, ['refunds:read']);
    const ordersOnly = await admin.createOrganizationAccessToken(owner.organizationId, ['orders:read']);
    const body = { order_id: order.id, reason: 'other', amount: 1 };
    const refused = await call(stack.sandbox.baseUrl, 'POST', '/v1/refunds/', { token: readOnly, body });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('insufficient_scope');
    expect((await call(stack.sandbox.baseUrl, 'GET', '/v1/refunds/', { token: readOnly })).status).toBe(200);
    expect((await call(stack.sandbox.baseUrl, 'GET', '/v1/refunds/', { token: ordersOnly })).status).toBe(403);
  });
});
