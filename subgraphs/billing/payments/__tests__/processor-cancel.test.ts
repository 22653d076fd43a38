import type { MikroORM } from '@mikro-orm/postgresql';
import { ManualClock } from '../../../../kit/clock.js';
import { createTestDatabase } from '../../../../test/support/database.js';
import { FakeStripe } from '../../../../test/support/fake-stripe.js';
import { openBillingOrm } from '../../orm.js';
import { PaymentProcessorNotConfigured } from '../payment.errors.js';
import type { ChargeOutcome, PaymentProcessor } from '../payment-processor.js';
import { UnconfiguredPaymentProcessor } from '../payment-processor.selection.js';
import { createStripeClient } from '../stripe/stripe-client.js';
import { StripePaymentProcessor } from '../stripe/stripe-processor.js';
import { TestChallenges } from '../test-processor/test-challenge.js';
import { TestPaymentProcessor } from '../test-processor/test-processor.js';

/**
 * Canceling an abandoned 3-D Secure charge (docs/payments.md): the intent that still waits is canceled,
 * so a late authentication cannot take the money; one that succeeded (or was canceled) meanwhile says so
 * instead of throwing. The test processor, Stripe (against the fake Stripe) and no processor at all.
 */
let orm: MikroORM;
let drop: () => Promise<void>;
let testProcessor: TestPaymentProcessor;
let challenges: TestChallenges;
const fake = new FakeStripe('sk_test_local');
let stripe: StripePaymentProcessor;
let n = 0;
const key = (purpose: string) => `${purpose}:cancel:${++n}`;

beforeAll(async () => {
  const db = await createTestDatabase('processor_cancel');
  drop = db.drop;
  orm = await openBillingOrm(db.url, 4);
  testProcessor = new TestPaymentProcessor(orm.em, new ManualClock(new Date('2026-11-28T12:00:00Z')));
  challenges = new TestChallenges(orm.em);
  const address = await fake.start();
  stripe = new StripePaymentProcessor(
    createStripeClient({ secretKey: 'sk_test_local', ...address, protocol: 'http', maxNetworkRetries: 1 }),
  );
});
afterAll(async () => {
  await fake.stop();
  await orm?.close();
  await drop?.();
});

async function waitingCharge(
  processor: PaymentProcessor,
): Promise<Extract<ChargeOutcome, { status: 'requires_action' }>> {
  const outcome = await processor.charge({
    idempotencyKey: key('charge'),
    amount: 1500n,
    currency: 'eur',
    customerId: null,
    paymentMethod: { kind: 'new', token: 'pm_card_threeDSecure2Required' },
    offSession: false,
  });
  if (outcome.status !== 'requires_action') throw new Error(outcome.status);
  return outcome;
}

describe('the test processor', () => {
  it('cancels a waiting charge once; its challenge then fails', async () => {
    const charge = await waitingCharge(testProcessor);
    const input = { idempotencyKey: key('cancel'), chargeId: charge.chargeId };
    expect(await testProcessor.cancel(input)).toEqual({ status: 'canceled', chargeId: charge.chargeId });
    expect(await testProcessor.cancel(input)).toEqual({ status: 'canceled', chargeId: charge.chargeId });
    const late = await challenges.settle(charge.clientSecret, true);
    expect(late?.challenge.status).toBe('canceled');
    expect(late?.event).toMatchObject({ type: 'charge.failed', failure: { code: 'payment_intent_canceled' } });
  });

  it('a charge the customer authenticated meanwhile is reported succeeded, not canceled', async () => {
    const charge = await waitingCharge(testProcessor);
    await challenges.settle(charge.clientSecret, true);
    expect(await testProcessor.cancel({ idempotencyKey: key('cancel'), chargeId: charge.chargeId })).toEqual({
      status: 'succeeded',
      chargeId: charge.chargeId,
      amount: 1500n,
      currency: 'eur',
    });
  });
});

describe('Stripe', () => {
  it('cancels the PaymentIntent (abandoned) with our key; a second cancel says canceled, no throw', async () => {
    const charge = await waitingCharge(stripe);
    const idempotencyKey = key('cancel');
    expect(await stripe.cancel({ idempotencyKey, chargeId: charge.chargeId })).toEqual({
      status: 'canceled',
      chargeId: charge.chargeId,
    });
    const sent = fake.requests.find(r => r.path === `/v1/payment_intents/${charge.chargeId}/cancel`);
    expect(sent).toMatchObject({ method: 'POST', idempotencyKey, params: { cancellation_reason: 'abandoned' } });
    expect(fake.paymentIntents.get(charge.chargeId)?.status).toBe('canceled');
    expect(await stripe.cancel({ idempotencyKey: key('cancel'), chargeId: charge.chargeId })).toEqual({
      status: 'canceled',
      chargeId: charge.chargeId,
    });
  });

  it('an intent that succeeded meanwhile is reported succeeded with its amount', async () => {
    const charge = await waitingCharge(stripe);
    Object.assign(fake.paymentIntents.get(charge.chargeId)!, { status: 'succeeded', amount_received: 1500 });
    expect(await stripe.cancel({ idempotencyKey: key('cancel'), chargeId: charge.chargeId })).toEqual({
      status: 'succeeded',
      chargeId: charge.chargeId,
      amount: 1500n,
      currency: 'eur',
    });
  });
});

it('without a processor the cancel is refused', async () => {
  await expect(
    (new UnconfiguredPaymentProcessor() as PaymentProcessor).cancel({ idempotencyKey: 'cancel:x', chargeId: 'pi_x' }),
  ).rejects.toBeInstanceOf(PaymentProcessorNotConfigured);
});
