import { ManualClock } from '../../../../kit/clock.js';
import { FakeStripe } from '../../../../test/support/fake-stripe.js';
import type { ProcessorEventHandler } from '../processor-events.js';
import { StripeWebhookReceiver } from '../stripe/stripe-webhook.receiver.js';

/**
 * Billing's receiver before anything is applied: which environments verify Stripe's deliveries, and
 * what each refusal says. Applying events is in test/e2e/stripe-webhooks.test.ts.
 */
const clock = new ManualClock(new Date('2027-01-05T12:00:00Z'));
const applied: unknown[] = [];
const events = {
  apply: async (event: unknown) => {
    applied.push(event);
    return 'handled';
  },
} as unknown as ProcessorEventHandler;
const signed = (secret: string) =>
  FakeStripe.signedEvent(
    FakeStripe.event(
      'payment_intent.succeeded',
      { id: 'pi_1', amount: 100, currency: 'usd', metadata: {} },
      clock.now(),
    ),
    secret,
    clock.now(),
  );

beforeEach(() => {
  applied.length = 0;
});

it('production without STRIPE_WEBHOOK_SECRET verifies nothing and names the setting', async () => {
  const receiver = new StripeWebhookReceiver({ environment: 'production', webhookSecret: null }, events, clock);
  const { payload, header } = signed('whsec_any');
  expect(await receiver.receiveStripe({ body: payload, signature: header })).toEqual({
    result: 'not_configured',
    detail: expect.stringContaining('STRIPE_WEBHOOK_SECRET'),
  });
  expect(applied).toEqual([]);
});

it('the sandbox never takes Stripe events, even with a secret', async () => {
  const receiver = new StripeWebhookReceiver({ environment: 'sandbox', webhookSecret: 'whsec_s' }, events, clock);
  const { payload, header } = signed('whsec_s');
  expect((await receiver.receiveStripe({ body: payload, signature: header })).result).toBe('not_configured');
  expect(applied).toEqual([]);
});

it('verifies with the secret, then applies; a wrong secret, no header or a non-string body is invalid_signature', async () => {
  const receiver = new StripeWebhookReceiver({ environment: 'production', webhookSecret: 'whsec_p' }, events, clock);
  const good = signed('whsec_p');
  expect(await receiver.receiveStripe({ body: good.payload, signature: good.header })).toEqual({ result: 'handled' });
  expect(applied).toEqual([expect.objectContaining({ type: 'charge.succeeded', chargeId: 'pi_1' })]);
  const bad = signed('whsec_other');
  for (const delivery of [
    { body: bad.payload, signature: bad.header },
    { body: good.payload, signature: null },
    { body: 42 as unknown as string, signature: good.header },
  ])
    expect((await receiver.receiveStripe(delivery)).result).toBe('invalid_signature');
  expect(applied).toHaveLength(1);
});
