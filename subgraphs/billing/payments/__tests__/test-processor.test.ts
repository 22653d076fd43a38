import type { MikroORM } from '@mikro-orm/postgresql';
import { ManualClock } from '../../../../kit/clock.js';
import { createTestDatabase } from '../../../../test/support/database.js';
import { openBillingOrm } from '../../orm.js';
import { IdempotencyKeyReused, InvalidPaymentMethod, PaymentProcessorRequestRejected } from '../payment.errors.js';
import { TestProcessorCharge } from '../test-processor/test-charge.entity.js';
import { TestPaymentProcessor } from '../test-processor/test-processor.js';
import { TestProcessorRefund } from '../test-processor/test-refund.entity.js';

/**
 * The built-in test processor on a real PostgreSQL: Stripe's test payment method names behave as
 * Stripe's do, every charge and refund is a row, and an idempotency key never charges twice.
 */
let orm: MikroORM;
let drop: () => Promise<void>;
let processor: TestPaymentProcessor;
const clock = new ManualClock(new Date('2026-11-23T12:00:00Z'));
let n = 0;
const key = (purpose: string) => `${purpose}:${++n}`;

beforeAll(async () => {
  const db = await createTestDatabase('test_processor');
  drop = db.drop;
  orm = await openBillingOrm(db.url, 12);
  processor = new TestPaymentProcessor(orm.em, clock);
});
afterAll(async () => {
  await orm?.close();
  await drop?.();
});

const newCustomer = () =>
  processor.createCustomer({ idempotencyKey: key('customer'), email: 'a@example.com', name: 'A' });
const chargeRows = (where: Record<string, unknown> = {}) => orm.em.fork().find(TestProcessorCharge, where);

describe('charging a method entered for this payment', () => {
  it.each([
    ['pm_card_visa', 'visa', '4242'],
    ['pm_card_mastercard', 'mastercard', '4444'],
    ['pm_card_amex', 'amex', '8431'],
  ])('%s succeeds as a %s ending in %s', async (token, brand, last4) => {
    const idempotencyKey = key('charge');
    const outcome = await processor.charge({
      idempotencyKey,
      amount: 1999n,
      currency: 'USD',
      customerId: null,
      paymentMethod: { kind: 'new', token },
      offSession: false,
    });
    expect(outcome).toEqual({
      status: 'succeeded',
      chargeId: expect.stringMatching(/^ch_test_/),
      amount: 1999n,
      currency: 'usd',
      paymentMethod: { id: null, type: 'card', brand, last4, expMonth: 12, expYear: 2034 },
    });
    const [row] = await chargeRows({ idempotencyKey });
    expect(row).toMatchObject({ status: 'succeeded', amount: 1999n, currency: 'usd', testMethod: token });
  });

  it.each([
    ['pm_card_chargeDeclined', 'generic_decline', 'Your card was declined.'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds', 'Your card has insufficient funds.'],
    ['pm_card_chargeCustomerFail', 'generic_decline', 'Your card was declined.'],
  ])('%s is declined (%s) and the attempt is recorded', async (token, declineCode, message) => {
    const idempotencyKey = key('charge');
    const outcome = await processor.charge({
      idempotencyKey,
      amount: 500n,
      currency: 'eur',
      customerId: null,
      paymentMethod: { kind: 'new', token },
      offSession: false,
    });
    expect(outcome).toMatchObject({
      status: 'failed',
      chargeId: expect.stringMatching(/^ch_test_/),
      failure: { code: 'card_declined', declineCode, message },
    });
    const [row] = await chargeRows({ idempotencyKey });
    expect(row).toMatchObject({ status: 'failed', declineCode, failureMessage: message });
  });

  it('an unknown name is a 422 at the field it came from', async () => {
    const attempt = processor.charge({
      idempotencyKey: key('charge'),
      amount: 500n,
      currency: 'usd',
      customerId: null,
      paymentMethod: { kind: 'new', token: 'pm_card_nope', field: ['body', 'payment_method', 'token'] },
      offSession: false,
    });
    await expect(attempt).rejects.toBeInstanceOf(InvalidPaymentMethod);
    await expect(attempt).rejects.toMatchObject({
      status: 422,
      code: 'PolarRequestValidationError',
      details: [
        {
          type: 'value_error',
          loc: ['body', 'payment_method', 'token'],
          input: 'pm_card_nope',
          msg: expect.stringContaining('pm_card_visa'),
        },
      ],
    });
  });

  it("by default the field is confirmation_token_id, where Polar takes Stripe's token", async () => {
    await expect(
      processor.savePaymentMethod({
        idempotencyKey: key('setup'),
        customerId: (await newCustomer()).id,
        paymentMethod: { kind: 'new', token: '4000000000000000' },
      }),
    ).rejects.toMatchObject({ details: [expect.objectContaining({ loc: ['body', 'confirmation_token_id'] })] });
  });
});

describe('idempotency', () => {
  it('the same key twice returns the first charge and charges once', async () => {
    const input = {
      idempotencyKey: key('charge'),
      amount: 2000n,
      currency: 'usd',
      customerId: null,
      paymentMethod: { kind: 'new' as const, token: 'pm_card_visa' },
      offSession: false,
    };
    const first = await processor.charge(input);
    const second = await processor.charge(input);
    expect(second).toEqual(first);
    expect(await chargeRows({ idempotencyKey: input.idempotencyKey })).toHaveLength(1);
  });

  it('ten concurrent calls with one key make one charge', async () => {
    const input = {
      idempotencyKey: key('charge'),
      amount: 700n,
      currency: 'usd',
      customerId: null,
      paymentMethod: { kind: 'new' as const, token: 'pm_card_mastercard' },
      offSession: false,
    };
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => processor.charge(input)));
    const ids = new Set(outcomes.map(o => (o.status === 'succeeded' ? o.chargeId : null)));
    expect(ids.size).toBe(1);
    expect(await chargeRows({ idempotencyKey: input.idempotencyKey })).toHaveLength(1);
  });

  it('a declined attempt replays as the same decline; a new key is a new attempt', async () => {
    const input = {
      idempotencyKey: key('charge'),
      amount: 700n,
      currency: 'usd',
      customerId: null,
      paymentMethod: { kind: 'new' as const, token: 'pm_card_chargeDeclined' },
      offSession: false,
    };
    const first = await processor.charge(input);
    expect(await processor.charge(input)).toEqual(first);
    const retry = await processor.charge({ ...input, idempotencyKey: key('charge') });
    expect(retry.status).toBe('failed');
    expect(retry.status === 'failed' && first.status === 'failed' && retry.chargeId !== first.chargeId).toBe(true);
  });

  it('a key reused with another amount is refused and charges nothing', async () => {
    const input = {
      idempotencyKey: key('charge'),
      amount: 700n,
      currency: 'usd',
      customerId: null,
      paymentMethod: { kind: 'new' as const, token: 'pm_card_visa' },
      offSession: false,
    };
    await processor.charge(input);
    await expect(processor.charge({ ...input, amount: 701n })).rejects.toBeInstanceOf(IdempotencyKeyReused);
    const rows = await chargeRows({ idempotencyKey: input.idempotencyKey });
    expect(rows.map(r => r.amount)).toEqual([700n]);
  });

  it('creating a customer twice with one key is one customer', async () => {
    const input = { idempotencyKey: key('customer'), email: 'b@example.com', name: null };
    const first = await processor.createCustomer(input);
    expect(first.id).toMatch(/^cus_test_/);
    expect(await processor.createCustomer(input)).toEqual(first);
  });
});

describe('saved payment methods', () => {
  it('a saved card is charged off-session; saving twice with one key saves once', async () => {
    const customer = await newCustomer();
    const setupKey = key('setup');
    const setup = await processor.savePaymentMethod({
      idempotencyKey: setupKey,
      customerId: customer.id,
      paymentMethod: { kind: 'new', token: 'pm_card_amex' },
    });
    expect(setup).toMatchObject({
      status: 'succeeded',
      paymentMethod: { id: expect.stringMatching(/^pm_test_/), brand: 'amex', last4: '8431' },
    });
    const again = await processor.savePaymentMethod({
      idempotencyKey: setupKey,
      customerId: customer.id,
      paymentMethod: { kind: 'new', token: 'pm_card_amex' },
    });
    expect(again).toEqual(setup);
    const methodId = setup.status === 'succeeded' ? setup.paymentMethod.id : '';
    const charge = await processor.charge({
      idempotencyKey: key('charge'),
      amount: 1500n,
      currency: 'usd',
      customerId: customer.id,
      paymentMethod: { kind: 'saved', id: methodId },
      offSession: true,
    });
    expect(charge).toMatchObject({ status: 'succeeded', paymentMethod: { id: methodId, brand: 'amex' } });
    const [row] = await chargeRows({ id: charge.status === 'succeeded' ? charge.chargeId : '' });
    expect(row).toMatchObject({ offSession: true, paymentMethodId: methodId, customerId: customer.id });
  });

  it('pm_card_chargeCustomerFail saves, then every charge on it is declined', async () => {
    const customer = await newCustomer();
    const setup = await processor.savePaymentMethod({
      idempotencyKey: key('setup'),
      customerId: customer.id,
      paymentMethod: { kind: 'new', token: 'pm_card_chargeCustomerFail' },
    });
    expect(setup.status).toBe('succeeded');
    const methodId = setup.status === 'succeeded' ? setup.paymentMethod.id : '';
    for (let attempt = 0; attempt < 3; attempt++) {
      const charge = await processor.charge({
        idempotencyKey: key('charge'),
        amount: 1500n,
        currency: 'usd',
        customerId: customer.id,
        paymentMethod: { kind: 'saved', id: methodId },
        offSession: true,
      });
      expect(charge).toMatchObject({ status: 'failed', failure: { message: 'Your card was declined.' } });
    }
  });

  it.each([
    ['pm_card_chargeDeclined', 'Your card was declined.'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'Your card has insufficient funds.'],
  ])('%s cannot be saved', async (token, message) => {
    const customer = await newCustomer();
    const setup = await processor.savePaymentMethod({
      idempotencyKey: key('setup'),
      customerId: customer.id,
      paymentMethod: { kind: 'new', token },
    });
    expect(setup).toMatchObject({ status: 'failed', failure: { code: 'card_declined', message } });
  });

  it("another customer's saved method, or a failed one, does not exist (422)", async () => {
    const owner = await newCustomer();
    const other = await newCustomer();
    const setup = await processor.savePaymentMethod({
      idempotencyKey: key('setup'),
      customerId: owner.id,
      paymentMethod: { kind: 'new', token: 'pm_card_visa' },
    });
    const methodId = setup.status === 'succeeded' ? setup.paymentMethod.id : '';
    await expect(
      processor.charge({
        idempotencyKey: key('charge'),
        amount: 100n,
        currency: 'usd',
        customerId: other.id,
        paymentMethod: { kind: 'saved', id: methodId, field: ['body', 'payment_method_id'] },
        offSession: true,
      }),
    ).rejects.toMatchObject({
      status: 422,
      details: [expect.objectContaining({ loc: ['body', 'payment_method_id'] })],
    });
  });

  it('saveForLater keeps a new card on the customer, once', async () => {
    const customer = await newCustomer();
    const input = {
      idempotencyKey: key('charge'),
      amount: 900n,
      currency: 'usd',
      customerId: customer.id,
      paymentMethod: { kind: 'new' as const, token: 'pm_card_visa' },
      saveForLater: true,
      offSession: false,
    };
    const first = await processor.charge(input);
    expect(first).toMatchObject({ status: 'succeeded', paymentMethod: { id: expect.stringMatching(/^pm_test_/) } });
    expect(await processor.charge(input)).toEqual(first);
    const methodId = first.status === 'succeeded' ? first.paymentMethod.id! : '';
    const renewal = await processor.charge({
      idempotencyKey: key('charge'),
      amount: 900n,
      currency: 'usd',
      customerId: customer.id,
      paymentMethod: { kind: 'saved', id: methodId },
      offSession: true,
    });
    expect(renewal.status).toBe('succeeded');
  });
});

describe('refunds', () => {
  async function paidCharge(amount: bigint): Promise<string> {
    const outcome = await processor.charge({
      idempotencyKey: key('charge'),
      amount,
      currency: 'jpy',
      customerId: null,
      paymentMethod: { kind: 'new', token: 'pm_card_visa' },
      offSession: false,
    });
    if (outcome.status !== 'succeeded') throw new Error('expected a paid charge');
    return outcome.chargeId;
  }

  it('partial refunds add up, the same key refunds once, and never beyond the charge', async () => {
    const chargeId = await paidCharge(1000n);
    const first = { idempotencyKey: key('refund'), chargeId, amount: 400n };
    const refund = await processor.refund(first);
    expect(refund).toEqual({
      status: 'succeeded',
      refundId: expect.stringMatching(/^re_test_/),
      amount: 400n,
      currency: 'jpy',
    });
    expect(await processor.refund(first)).toEqual(refund);
    await processor.refund({ idempotencyKey: key('refund'), chargeId, amount: 600n });
    await expect(processor.refund({ idempotencyKey: key('refund'), chargeId, amount: 1n })).rejects.toBeInstanceOf(
      PaymentProcessorRequestRejected,
    );
    const [charge] = await chargeRows({ id: chargeId });
    expect(charge.amountRefunded).toBe(1000n);
    const refunds = await orm.em.fork().find(TestProcessorRefund, { chargeId });
    expect(refunds.map(r => r.amount).sort()).toEqual([400n, 600n]);
  });

  it('concurrent refunds of one charge never exceed it', async () => {
    const chargeId = await paidCharge(1000n);
    const attempts = await Promise.allSettled(
      Array.from({ length: 5 }, () => processor.refund({ idempotencyKey: key('refund'), chargeId, amount: 300n })),
    );
    expect(attempts.filter(a => a.status === 'fulfilled')).toHaveLength(3);
    const [charge] = await chargeRows({ id: chargeId });
    expect(charge.amountRefunded).toBe(900n);
  });

  it('a declined charge cannot be refunded', async () => {
    const declined = await processor.charge({
      idempotencyKey: key('charge'),
      amount: 100n,
      currency: 'usd',
      customerId: null,
      paymentMethod: { kind: 'new', token: 'pm_card_chargeDeclined' },
      offSession: false,
    });
    const chargeId = declined.status === 'failed' ? declined.chargeId! : '';
    await expect(processor.refund({ idempotencyKey: key('refund'), chargeId, amount: 100n })).rejects.toBeInstanceOf(
      PaymentProcessorRequestRejected,
    );
  });
});
