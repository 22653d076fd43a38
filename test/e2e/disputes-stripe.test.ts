import { ManualClock } from '../../kit/clock.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { stripeDispute } from '../support/fake-stripe-disputes.js';
import { call } from '../support/stack.js';
import { StripeStack } from '../support/stripe-stack.js';

/**
 * Disputes from Stripe's `charge.dispute.*` events at `POST /v1/integrations/stripe/webhook`, on a production
 * environment that charges through Stripe (a loopback server speaking Stripe's API): the first event makes the
 * dispute, later ones move it, each applied once; `accept` closes it at Stripe (docs/disputes.md).
 */
jest.setTimeout(120_000);
const SECRET = 'whsec_disputes_secret';
const wall = new ManualClock(new Date('2027-05-04T12:00:00.000Z'));
const world = new StripeStack(SECRET, wall);
const stripe = world.stripe;
let base: string;

beforeAll(async () => {
  ({ base } = await world.start('disputes_stripe'));
}, 120_000);
afterAll(() => world.close());

const { api, deliver, product } = world;

/** A one-time sale paid with Stripe's `pm_card_visa`; its order and the payment intent that paid it. */
async function sell(amount: number): Promise<{ order: Record<string, any>; intent: string }> {
  const productId = await product({ prices: [{ amount_type: 'fixed', price_amount: amount }] });
  const checkout = await api('POST', '/v1/checkouts/', { products: [productId], customer_email: 'd@example.com' });
  const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_visa' },
  });
  expect(confirmed.status).toBe(200);
  const orders = await api('GET', `/v1/orders/?checkout_id=${checkout.body.id}`);
  const intent = [...stripe.paymentIntents.values()].at(-1)!;
  return { order: orders.body.items[0], intent: intent.id as string };
}

describe("Stripe's dispute events", () => {
  let order: Record<string, any>;
  let atStripe: Record<string, any>;

  beforeAll(async () => {
    let intent: string;
    ({ order, intent } = await sell(3000));
    atStripe = stripeDispute(intent, 3000, 'usd', { reason: 'duplicate' });
    stripe.disputes.set(atStripe.id, atStripe);
  });

  it('charge.dispute.created makes the dispute, once; the same event again is a duplicate', async () => {
    const event = FakeStripe.event('charge.dispute.created', atStripe, wall.now());
    const answer = await deliver(event);
    expect([answer.status, answer.body]).toEqual([200, { received: true, result: 'handled' }]);
    expect((await deliver(event)).body.result).toBe('duplicate');
    const listed = (await api('GET', `/v1/disputes/?order_id=${order.id}`)).body.items;
    expect(listed).toEqual([
      expect.objectContaining({
        status: 'needs_response',
        amount: 3000,
        tax_amount: 0,
        currency: 'usd',
        reason: 'duplicate',
        evidence_due_by: new Date(atStripe.evidence_details.due_by * 1000).toISOString(),
        order_id: order.id,
        customer: expect.objectContaining({ id: order.customer_id }),
      }),
    ]);
  });

  it('charge.dispute.updated keeps it current (an inquiry under review is under review)', async () => {
    const updated = { ...atStripe, status: 'warning_under_review', evidence_details: { past_due: true } };
    expect((await deliver(FakeStripe.event('charge.dispute.updated', updated, wall.now()))).body.result).toBe(
      'handled',
    );
    const [dispute] = (await api('GET', `/v1/disputes/?order_id=${order.id}`)).body.items;
    expect(dispute).toMatchObject({ status: 'under_review', past_due: true, evidence_due_by: null });
    const back = { ...atStripe, status: 'needs_response' };
    await deliver(FakeStripe.event('charge.dispute.updated', back, wall.now()));
  });

  it('accept closes it at Stripe: lost; a later charge.dispute.closed does not change the outcome', async () => {
    const [dispute] = (await api('GET', `/v1/disputes/?order_id=${order.id}`)).body.items;
    expect(dispute.status).toBe('needs_response');
    const accepted = await api('POST', `/v1/disputes/${dispute.id}/accept`);
    expect([accepted.status, accepted.body.status, accepted.body.closed]).toEqual([200, 'lost', true]);
    expect(stripe.requests.filter(r => r.path === `/v1/disputes/${atStripe.id}/close`)).toHaveLength(1);
    const closed = { ...atStripe, status: 'won' };
    await deliver(FakeStripe.event('charge.dispute.closed', closed, wall.now()));
    expect((await api('GET', `/v1/disputes/${dispute.id}`)).body.status).toBe('lost');
  });

  it('a dispute of a charge that is not one of ours is acknowledged and ignored', async () => {
    const foreign = stripeDispute('pi_not_ours', 500, 'usd');
    const answer = await deliver(FakeStripe.event('charge.dispute.created', foreign, wall.now()));
    expect([answer.status, answer.body]).toEqual([200, { received: true, result: 'ignored' }]);
    expect((await api('GET', '/v1/disputes/?limit=100')).body.items).toHaveLength(1);
  });
});
