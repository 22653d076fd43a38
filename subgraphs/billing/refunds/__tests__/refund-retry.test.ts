import type { Principal } from '../../../../kit/principal.js';
import { sharedTestStack } from '../../../../test/support/shared-stack.js';
import { call, createTenant, type Tenant, type TestStack } from '../../../../test/support/stack.js';
import { ChargeAlreadyRefunded } from '../../payments/payment.errors.js';
import type { PaymentProcessor } from '../../payments/payment-processor.js';
import { RefundService } from '../refund.service.js';

/**
 * docs/reliability.md#exactly-once-where-it-matters for refunds: the processor refunds, then the process dies before our commit. The
 * retry derives the same key (`refund:{order}:{n}`, n unchanged since nothing committed), so the
 * processor answers its first refund: the money moves once, and one refund is recorded.
 */
let stack: TestStack;
let owner: Tenant;

beforeAll(async () => {
  stack = await sharedTestStack();
  owner = await createTenant(stack.sandbox);
}, 120_000);

const api = (method: string, path: string, body?: unknown) =>
  call(stack.sandbox.baseUrl, method, path, { token: owner.oat, body });

/** A paid one-time order of 4000 in the owner's sandbox organization. */
async function paidOrder(email: string): Promise<{ id: string }> {
  const product = await api('POST', '/v1/products/', {
    name: 'Once',
    recurring_interval: null,
    prices: [{ amount_type: 'fixed', price_amount: 4000 }],
  });
  const checkout = await api('POST', '/v1/checkouts/', { products: [product.body.id], customer_email: email });
  await call(stack.sandbox.baseUrl, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_visa' },
  });
  return (await api('GET', `/v1/orders/?checkout_id=${checkout.body.id}`)).body.items[0];
}

const principal = (): Principal => ({
  subject: 'organization',
  subjectId: owner.organizationId,
  credential: 'organization_access_token',
  scopes: ['refunds:write'],
  organizationIds: [owner.organizationId],
  tokenId: null,
});

/** The environment's processor with its `refund` replaced. */
function processorWith(refund: PaymentProcessor['refund']): PaymentProcessor {
  const processor = stack.sandbox.environment.billing.services.payments;
  return { ...processor, name: processor.name, refund } as PaymentProcessor;
}

it('a refund retried after a crash between the processor and the commit moves the money once', async () => {
  const order = await paidOrder('r@example.com');
  const billing = stack.sandbox.environment.billing;
  const processor = billing.services.payments;
  const dying = processorWith(async input => {
    await processor.refund(input);
    throw new Error('process died after the processor refunded');
  });
  const input = { orderId: order.id, reason: 'other' as const, amount: 1500n };
  await expect(new RefundService(dying).create(billing.createContext(principal(), 'crash'), input)).rejects.toThrow(
    'process died',
  );
  const refund = await billing.services.refunds.create(billing.createContext(principal(), 'retry'), input);
  expect(refund).toMatchObject({ status: 'succeeded', amount: 1500n });

  const sql = (text: string) => billing.orm.em.fork().getConnection().execute(text, [order.id]);
  expect(
    await sql(`select r.amount from billing.test_processor_refunds r join billing.payments p on p.processor_id = r.charge_id
      where p.order_id = ?`),
  ).toEqual([{ amount: '1500' }]);
  expect(await sql(`select idempotency_key from billing.refunds where order_id = ?`)).toEqual([
    { idempotency_key: `refund:${order.id}:1` },
  ]);
  expect((await api('GET', `/v1/orders/${order.id}`)).body).toMatchObject({
    status: 'partially_refunded',
    refunded_amount: 1500,
    refundable_amount: 2500,
  });
});

it('a charge the processor has already refunded in full (in its dashboard) is 403 RefundedAlready, nothing recorded', async () => {
  const order = await paidOrder('dashboard@example.com');
  const billing = stack.sandbox.environment.billing;
  // What the Stripe processor throws for Stripe's `charge_already_refunded` (stripe-processor.test.ts).
  const refundedElsewhere = processorWith(async () => {
    throw new ChargeAlreadyRefunded('Charge ch_1 has already been refunded.');
  });
  await expect(
    new RefundService(refundedElsewhere).create(billing.createContext(principal(), 'dashboard'), {
      orderId: order.id,
      reason: 'other',
      amount: 1000n,
    }),
  ).rejects.toMatchObject({ code: 'RefundedAlready', status: 403 });
  const sql = (text: string) => billing.orm.em.fork().getConnection().execute(text, [order.id]);
  expect(await sql('select id from billing.refunds where order_id = ?')).toEqual([]);
  expect((await api('GET', `/v1/orders/${order.id}`)).body).toMatchObject({ status: 'paid', refunded_amount: 0 });
});
