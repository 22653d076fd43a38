import { FakeStripe } from '../../../../test/support/fake-stripe.js';
import { createStripeClient } from '../stripe/stripe-client.js';
import { InvalidWebhookSignature } from '../payment.errors.js';
import { verifyStripeWebhook } from '../stripe/stripe-webhooks.js';

/**
 * Stripe's signed webhooks: `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.payload">`
 * (signed here by hand, not by the library under test), verified with the official client against
 * our clock, and mapped to processor-neutral events.
 */
const stripe = createStripeClient({ secretKey: 'sk_test_unused' });
const secret = 'whsec_test_secret';
const at = new Date('2026-11-23T12:00:00Z');

function event(type: string, object: Record<string, unknown>) {
  return {
    id: `evt_${type.replace(/\W/g, '')}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(at.getTime() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: 'charge:o1:1' },
    type,
    data: { object },
  };
}

const intent = {
  id: 'pi_123',
  object: 'payment_intent',
  amount: 1999,
  amount_received: 1999,
  currency: 'usd',
  metadata: { order_id: 'o1' },
  status: 'succeeded',
  last_payment_error: null,
};

describe('verifyStripeWebhook', () => {
  it('payment_intent.succeeded → charge.succeeded', () => {
    const { payload, header } = FakeStripe.signedEvent(event('payment_intent.succeeded', intent), secret, at);
    expect(verifyStripeWebhook(stripe, payload, header, secret, at)).toEqual({
      type: 'charge.succeeded',
      eventId: 'evt_payment_intentsucceeded',
      chargeId: 'pi_123',
      amount: 1999n,
      currency: 'usd',
      metadata: { order_id: 'o1' },
    });
  });

  it('payment_intent.payment_failed → charge.failed with the decline', () => {
    const failed = {
      ...intent,
      status: 'requires_payment_method',
      amount_received: 0,
      last_payment_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
    };
    const { payload, header } = FakeStripe.signedEvent(event('payment_intent.payment_failed', failed), secret, at);
    expect(verifyStripeWebhook(stripe, Buffer.from(payload), header, secret, at)).toEqual({
      type: 'charge.failed',
      eventId: 'evt_payment_intentpayment_failed',
      chargeId: 'pi_123',
      amount: 1999n,
      currency: 'usd',
      failure: {
        code: 'card_declined',
        declineCode: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
      metadata: { order_id: 'o1' },
    });
  });

  it('charge.refunded → charge.refunded with the total refunded, keyed by the PaymentIntent', () => {
    const charge = {
      id: 'ch_1',
      object: 'charge',
      amount: 1999,
      amount_refunded: 500,
      currency: 'usd',
      payment_intent: 'pi_123',
      refunded: false,
    };
    const { payload, header } = FakeStripe.signedEvent(event('charge.refunded', charge), secret, at);
    expect(verifyStripeWebhook(stripe, payload, header, secret, at)).toEqual({
      type: 'charge.refunded',
      eventId: 'evt_chargerefunded',
      chargeId: 'pi_123',
      amountRefunded: 500n,
      currency: 'usd',
    });
  });

  it.each([
    ['refund.updated', 'succeeded', 'succeeded', null],
    ['refund.failed', 'failed', 'failed', 'insufficient_funds'],
    ['charge.refund.updated', 'canceled', 'canceled', null],
    ['refund.updated', 'requires_action', 'pending', null],
  ])('%s with a %s refund → refund.updated %s', (type, stripeStatus, status, failureReason) => {
    const refund = {
      id: 're_1',
      object: 'refund',
      amount: 500,
      currency: 'usd',
      payment_intent: 'pi_123',
      status: stripeStatus,
      failure_reason: failureReason,
    };
    const { payload, header } = FakeStripe.signedEvent(event(type, refund), secret, at);
    expect(verifyStripeWebhook(stripe, payload, header, secret, at)).toEqual({
      type: 'refund.updated',
      eventId: `evt_${type.replace(/\W/g, '')}`,
      refundId: 're_1',
      status,
      failureReason,
    });
  });

  it('a verified event of another type is acknowledged as null', () => {
    const { payload, header } = FakeStripe.signedEvent(
      event('customer.created', { id: 'cus_1', object: 'customer' }),
      secret,
      at,
    );
    expect(verifyStripeWebhook(stripe, payload, header, secret, at)).toBeNull();
  });

  it('accepts a header with several v1 signatures when one is ours (secret rotation)', () => {
    const { payload, header } = FakeStripe.signedEvent(event('payment_intent.succeeded', intent), secret, at);
    const rotated = header.replace(',v1=', `,v1=${'0'.repeat(64)},v1=`);
    expect(verifyStripeWebhook(stripe, payload, rotated, secret, at)?.type).toBe('charge.succeeded');
  });

  it.each([
    ['a tampered body', (p: string) => p.replace('1999', '1'), (h: string) => h, secret, at],
    ['another secret', (p: string) => p, (h: string) => h, 'whsec_other', at],
    ['an event older than 5 minutes', (p: string) => p, (h: string) => h, secret, new Date(at.getTime() + 301_000)],
    ['a header without v1', (p: string) => p, (h: string) => h.replace(/,v1=.*/, ''), secret, at],
    ['a garbage header', (p: string) => p, () => 'nonsense', secret, at],
  ])('refuses %s (400 InvalidWebhookSignature)', (_name, body, head, key, when) => {
    const { payload, header } = FakeStripe.signedEvent(event('payment_intent.succeeded', intent), secret, at);
    expect(() => verifyStripeWebhook(stripe, body(payload), head(header), key, when)).toThrow(InvalidWebhookSignature);
    try {
      verifyStripeWebhook(stripe, body(payload), head(header), key, when);
    } catch (error) {
      expect(error).toMatchObject({ code: 'InvalidWebhookSignature', status: 400 });
    }
  });

  it('refuses a request without a Stripe-Signature header', () => {
    expect(() => verifyStripeWebhook(stripe, '{}', undefined, secret, at)).toThrow(InvalidWebhookSignature);
  });
});
