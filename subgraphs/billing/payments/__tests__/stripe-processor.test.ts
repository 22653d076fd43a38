import { createHmac } from 'node:crypto';
import { FakeStripe } from '../../../../test/support/fake-stripe.js';
import {
  ChargeAlreadyRefunded,
  IdempotencyKeyReused,
  InvalidPaymentMethod,
  PaymentProcessorRequestRejected,
  PaymentProcessorUnavailable,
} from '../payment.errors.js';
import { createStripeClient } from '../stripe/stripe-client.js';
import { StripePaymentProcessor } from '../stripe/stripe-processor.js';

/**
 * The Stripe processor through the official `stripe` client, against a loopback server that answers
 * as Stripe documents (test/support/fake-stripe.ts): what is sent (Idempotency-Key, off_session,
 * confirmation tokens), how a decline comes back, and that a replayed key never pays twice.
 */
const fake = new FakeStripe('sk_test_local');
let processor: StripePaymentProcessor;
let address: { host: string; port: number };
let n = 0;
const key = (purpose: string) => `${purpose}:${++n}`;

beforeAll(async () => {
  address = await fake.start();
  processor = new StripePaymentProcessor(
    createStripeClient({ secretKey: 'sk_test_local', ...address, protocol: 'http', maxNetworkRetries: 1 }),
  );
});
afterAll(() => fake.stop());

const lastRequest = () => fake.requests[fake.requests.length - 1];

describe('customers and saved payment methods', () => {
  it('creates a customer with our idempotency key', async () => {
    const idempotencyKey = key('customer');
    const customer = await processor.createCustomer({
      idempotencyKey,
      email: 'jane@example.com',
      name: 'Jane',
      metadata: { customer_id: 'c1' },
    });
    expect(customer.id).toMatch(/^cus_/);
    expect(lastRequest()).toMatchObject({
      method: 'POST',
      path: '/v1/customers',
      idempotencyKey,
      params: { email: 'jane@example.com', name: 'Jane', metadata: { customer_id: 'c1' } },
    });
  });

  it('saves a card from a confirmation token with a SetupIntent (off-session use)', async () => {
    const customer = await processor.createCustomer({ idempotencyKey: key('customer'), email: null, name: null });
    const idempotencyKey = key('setup');
    const setup = await processor.savePaymentMethod({
      idempotencyKey,
      customerId: customer.id,
      paymentMethod: { kind: 'new', token: 'ctoken_pm_card_mastercard' },
    });
    expect(setup).toEqual({
      status: 'succeeded',
      setupId: expect.stringMatching(/^seti_/),
      paymentMethod: {
        id: expect.stringMatching(/^pm_/),
        type: 'card',
        brand: 'mastercard',
        last4: '4444',
        expMonth: 12,
        expYear: 2034,
      },
    });
    expect(lastRequest()).toMatchObject({
      path: '/v1/setup_intents',
      idempotencyKey,
      params: {
        customer: customer.id,
        confirm: 'true',
        usage: 'off_session',
        confirmation_token: 'ctoken_pm_card_mastercard',
      },
    });
  });

  it('a declined card cannot be saved: the decline is returned', async () => {
    const customer = await processor.createCustomer({ idempotencyKey: key('customer'), email: null, name: null });
    const setup = await processor.savePaymentMethod({
      idempotencyKey: key('setup'),
      customerId: customer.id,
      paymentMethod: { kind: 'new', token: 'pm_card_chargeDeclined' },
    });
    expect(setup).toMatchObject({
      status: 'failed',
      failure: { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
    });
  });
});

describe('charges', () => {
  it('charges a new card: a confirmed PaymentIntent, its id is the charge id', async () => {
    const idempotencyKey = key('charge');
    const outcome = await processor.charge({
      idempotencyKey,
      amount: 1999n,
      currency: 'USD',
      customerId: null,
      paymentMethod: { kind: 'new', token: 'pm_card_visa' },
      offSession: false,
      metadata: { order_id: 'o1' },
    });
    expect(outcome).toEqual({
      status: 'succeeded',
      chargeId: expect.stringMatching(/^pi_/),
      amount: 1999n,
      currency: 'usd',
      paymentMethod: { id: null, type: 'card', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 },
    });
    expect(lastRequest()).toMatchObject({
      path: '/v1/payment_intents',
      idempotencyKey,
      params: {
        amount: '1999',
        currency: 'usd',
        confirm: 'true',
        payment_method: 'pm_card_visa',
        metadata: { order_id: 'o1' },
      },
    });
    expect(lastRequest().params).not.toHaveProperty('off_session');
  });

  it("a decline (card_error, card_declined, insufficient_funds) is returned with Stripe's message", async () => {
    const outcome = await processor.charge({
      idempotencyKey: key('charge'),
      amount: 500n,
      currency: 'usd',
      customerId: null,
      paymentMethod: { kind: 'new', token: 'pm_card_chargeDeclinedInsufficientFunds' },
      offSession: false,
    });
    expect(outcome).toEqual({
      status: 'failed',
      chargeId: expect.stringMatching(/^pi_/),
      failure: {
        code: 'card_declined',
        declineCode: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
      paymentMethod: null,
    });
  });

  it('a renewal charges the saved method off-session; pm_card_chargeCustomerFail saves and then fails', async () => {
    const customer = await processor.createCustomer({ idempotencyKey: key('customer'), email: null, name: null });
    const saved = await processor.savePaymentMethod({
      idempotencyKey: key('setup'),
      customerId: customer.id,
      paymentMethod: { kind: 'new', token: 'pm_card_chargeCustomerFail' },
    });
    expect(saved.status).toBe('succeeded');
    const methodId = saved.status === 'succeeded' ? saved.paymentMethod.id : '';
    const outcome = await processor.charge({
      idempotencyKey: key('charge'),
      amount: 900n,
      currency: 'usd',
      customerId: customer.id,
      paymentMethod: { kind: 'saved', id: methodId },
      offSession: true,
    });
    expect(outcome).toMatchObject({ status: 'failed', failure: { message: 'Your card was declined.' } });
    expect(lastRequest().params).toMatchObject({
      off_session: 'true',
      payment_method: methodId,
      customer: customer.id,
    });
  });

  it('a first payment that keeps the card asks for setup_future_usage, and the card is then chargeable', async () => {
    const customer = await processor.createCustomer({ idempotencyKey: key('customer'), email: null, name: null });
    const first = await processor.charge({
      idempotencyKey: key('charge'),
      amount: 1000n,
      currency: 'eur',
      customerId: customer.id,
      paymentMethod: { kind: 'new', token: 'ctoken_pm_card_amex' },
      saveForLater: true,
      offSession: false,
    });
    expect(lastRequest().params).toMatchObject({
      setup_future_usage: 'off_session',
      confirmation_token: 'ctoken_pm_card_amex',
    });
    expect(first).toMatchObject({
      status: 'succeeded',
      paymentMethod: { id: expect.stringMatching(/^pm_/), brand: 'amex' },
    });
    const renewal = await processor.charge({
      idempotencyKey: key('charge'),
      amount: 1000n,
      currency: 'eur',
      customerId: customer.id,
      paymentMethod: { kind: 'saved', id: first.status === 'succeeded' ? first.paymentMethod.id! : '' },
      offSession: true,
    });
    expect(renewal.status).toBe('succeeded');
  });

  it('a succeeded PaymentIntent without its payment method expanded is still a success (never charged twice)', async () => {
    fake.ignoreExpand = true;
    try {
      const outcome = await processor.charge({
        idempotencyKey: key('charge'),
        amount: 1200n,
        currency: 'usd',
        customerId: null,
        paymentMethod: { kind: 'new', token: 'pm_card_visa' },
        offSession: false,
      });
      expect(outcome).toMatchObject({
        status: 'succeeded',
        amount: 1200n,
        paymentMethod: { id: null, brand: 'unknown' },
      });
    } finally {
      fake.ignoreExpand = false;
    }
  });

  it("an unknown payment method is a 422 at the caller's field", async () => {
    await expect(
      processor.charge({
        idempotencyKey: key('charge'),
        amount: 500n,
        currency: 'usd',
        customerId: null,
        paymentMethod: { kind: 'new', token: 'ctoken_nope' },
        offSession: false,
      }),
    ).rejects.toMatchObject({
      constructor: InvalidPaymentMethod,
      status: 422,
      details: [expect.objectContaining({ loc: ['body', 'confirmation_token_id'], input: 'ctoken_nope' })],
    });
  });
});

describe('idempotency', () => {
  it('the same key replays the first PaymentIntent: one payment at Stripe', async () => {
    const input = {
      idempotencyKey: key('charge'),
      amount: 2500n,
      currency: 'usd',
      customerId: null,
      paymentMethod: { kind: 'new' as const, token: 'pm_card_visa' },
      offSession: false,
    };
    const before = fake.paymentIntents.size;
    const first = await processor.charge(input);
    const second = await processor.charge(input);
    expect(second).toEqual(first);
    expect(fake.paymentIntents.size).toBe(before + 1);
  });

  it('a response lost after Stripe charged: the client retries with the same key and gets that charge', async () => {
    const before = fake.paymentIntents.size;
    fake.dropNextResponse();
    const outcome = await processor.charge({
      idempotencyKey: key('charge'),
      amount: 3000n,
      currency: 'usd',
      customerId: null,
      paymentMethod: { kind: 'new', token: 'pm_card_visa' },
      offSession: false,
    });
    expect(outcome.status).toBe('succeeded');
    expect(fake.paymentIntents.size).toBe(before + 1);
    const sent = fake.requests.slice(-2);
    expect(sent[0].idempotencyKey).toBe(sent[1].idempotencyKey);
  });

  it('a key reused with other parameters is refused (idempotency_error)', async () => {
    const input = {
      idempotencyKey: key('charge'),
      amount: 100n,
      currency: 'usd',
      customerId: null,
      paymentMethod: { kind: 'new' as const, token: 'pm_card_visa' },
      offSession: false,
    };
    await processor.charge(input);
    await expect(processor.charge({ ...input, amount: 101n })).rejects.toBeInstanceOf(IdempotencyKeyReused);
  });
});

describe('refunds', () => {
  it('refunds part of a PaymentIntent, idempotently, and never more than was paid', async () => {
    const paid = await processor.charge({
      idempotencyKey: key('charge'),
      amount: 1000n,
      currency: 'jpy',
      customerId: null,
      paymentMethod: { kind: 'new', token: 'pm_card_visa' },
      offSession: false,
    });
    const chargeId = paid.status === 'succeeded' ? paid.chargeId : '';
    const input = { idempotencyKey: key('refund'), chargeId, amount: 400n, reason: 'requested_by_customer' as const };
    const refund = await processor.refund(input);
    expect(refund).toEqual({
      status: 'succeeded',
      refundId: expect.stringMatching(/^re_/),
      amount: 400n,
      currency: 'jpy',
    });
    expect(lastRequest()).toMatchObject({
      path: '/v1/refunds',
      idempotencyKey: input.idempotencyKey,
      params: { payment_intent: chargeId, amount: '400', reason: 'requested_by_customer' },
    });
    expect(await processor.refund(input)).toEqual(refund);
    await expect(processor.refund({ idempotencyKey: key('refund'), chargeId, amount: 601n })).rejects.toBeInstanceOf(
      PaymentProcessorRequestRejected,
    );
  });

  it('a charge with nothing left to refund is ChargeAlreadyRefunded (Stripe: charge_already_refunded)', async () => {
    const paid = await processor.charge({
      idempotencyKey: key('charge'),
      amount: 700n,
      currency: 'usd',
      customerId: null,
      paymentMethod: { kind: 'new', token: 'pm_card_visa' },
      offSession: false,
    });
    const chargeId = paid.status === 'succeeded' ? paid.chargeId : '';
    await processor.refund({ idempotencyKey: key('refund'), chargeId, amount: 700n });
    await expect(processor.refund({ idempotencyKey: key('refund'), chargeId, amount: 100n })).rejects.toBeInstanceOf(
      ChargeAlreadyRefunded,
    );
  });
});

describe('failures of Stripe itself', () => {
  it('a wrong secret key, or no server, is PaymentProcessorUnavailable (outcome unknown, retry with the key)', async () => {
    const wrongKey = new StripePaymentProcessor(
      createStripeClient({ secretKey: 'sk_test_wrong', ...address, protocol: 'http', maxNetworkRetries: 0 }),
    );
    await expect(
      wrongKey.createCustomer({ idempotencyKey: key('customer'), email: null, name: null }),
    ).rejects.toMatchObject({
      constructor: PaymentProcessorUnavailable,
      message: expect.stringContaining('STRIPE_SECRET_KEY'),
    });
    const closed = new FakeStripe('sk_test_local');
    const closedAddress = await closed.start();
    await closed.stop();
    const unreachable = new StripePaymentProcessor(
      createStripeClient({ secretKey: 'sk_test_local', ...closedAddress, protocol: 'http', maxNetworkRetries: 0 }),
    );
    await expect(
      unreachable.createCustomer({ idempotencyKey: key('customer'), email: null, name: null }),
    ).rejects.toBeInstanceOf(PaymentProcessorUnavailable);
  });
});

describe("FakeStripe's signing is Stripe's documented scheme", () => {
  it('v1 = HMAC-SHA256(secret, "t.payload")', () => {
    const at = new Date('2026-11-23T12:00:00Z');
    const { payload, header } = FakeStripe.signedEvent({ id: 'evt_1' }, 'whsec_x', at);
    const expected = createHmac('sha256', 'whsec_x').update(`1795435200.${payload}`).digest('hex');
    expect(header).toBe(`t=1795435200,v1=${expected}`);
  });
});
