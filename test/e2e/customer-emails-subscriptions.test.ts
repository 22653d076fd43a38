import { ManualClock } from '../../kit/clock.js';
import { EmailWorld, type Merchant } from './support/customer-emails.js';

/**
 * Every subscription e-mail end to end (docs/email.md#customer-e-mails), each driven through the real
 * API and the sandbox clock, delivered over SMTP and read back: confirmation, renewal, plan change,
 * cancellation and its undoing, pause and resume, revocation, the trial's conversion and its reminder,
 * a failed renewal (past due), the renewal reminder of a yearly plan and the card expiration reminder.
 * Each scenario is a merchant of its own (its own sandbox clock). The test cards expire 12/2034.
 */
jest.setTimeout(240_000);
const START = new Date('2034-09-01T09:30:00.000Z');
const world = new EmailWorld();
const DAY = 24 * 60 * 60 * 1000;
const plus = (iso: string, days: number) => new Date(new Date(iso).getTime() + days * DAY);

beforeAll(() => world.start('customer_emails_subscriptions', new ManualClock(START)), 120_000);
afterAll(() => world.close());

async function seller(): Promise<Merchant> {
  return world.merchant('Sub Seller');
}

describe('a monthly subscription, told at each change', () => {
  it('confirmation, renewal, plan change, cancellation, uncancel, pause, resume, revocation', async () => {
    const m = await seller();
    const plan = await m.product({
      name: 'Plan M',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1000 }],
    });
    const bigger = await m.product({
      name: 'Plan M2',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 2500 }],
    });
    const buyer = m.alias('monthly');
    const sub = await m.subscriptionOf(await m.buy(buyer, plan));

    const confirmation = await world.mail(buyer, 'Your Plan M subscription');
    expect(confirmation.text).toContain('Total: $10.00');
    expect(confirmation.html).toContain('$10.00');
    expect(world.link(confirmation.text, 'Manage your purchases in the customer portal')).toContain(
      `/portal/${m.owner.slug}/subscriptions/${sub.id}?login_token=polar_cel_`,
    );

    await m.advance(plus(sub.current_period_end, 1));
    const renewed = await world.mail(buyer, 'Your Plan M subscription has been renewed');
    expect(renewed.text).toContain('Total: $10.00');
    expect(renewed.text).toMatch(/Download the invoice: \S+\/orders\/[0-9a-f-]+\/invoice\?login_token=/);

    const changed = await m.api('PATCH', `/v1/subscriptions/${sub.id}`, {
      product_id: bigger,
      proration_behavior: 'prorate',
    });
    expect(changed.status).toBe(200);
    expect((await world.mail(buyer, 'Your subscription has changed to Plan M2')).text).toContain('$25.00 / month');

    expect((await m.api('PATCH', `/v1/subscriptions/${sub.id}`, { cancel_at_period_end: true })).status).toBe(200);
    expect((await world.mail(buyer, 'Your Plan M2 subscription cancellation')).text).toContain('You keep access until');
    expect((await m.api('PATCH', `/v1/subscriptions/${sub.id}`, { cancel_at_period_end: false })).status).toBe(200);
    await world.mail(buyer, 'Your Plan M2 subscription is uncanceled');

    expect((await m.api('PATCH', `/v1/subscriptions/${sub.id}`, { pause_at_period_end: true })).status).toBe(200);
    const current = (await m.api('GET', `/v1/subscriptions/${sub.id}`)).body;
    await m.advance(plus(current.current_period_end, 1));
    await world.mail(buyer, 'Your Plan M2 subscription is paused');
    expect((await m.api('PATCH', `/v1/subscriptions/${sub.id}`, { resume: true })).status).toBe(200);
    await world.mail(buyer, 'Your Plan M2 subscription has resumed');

    expect((await m.api('DELETE', `/v1/subscriptions/${sub.id}`)).status).toBe(200);
    await world.mail(buyer, 'Your Plan M2 subscription has ended');
    // Revoked at once: no cancellation e-mail besides the one the scheduled cancel sent.
    const cancellations = (await world.outbox(buyer)).filter(r => r.kind === 'subscription_cancellation');
    expect(cancellations).toHaveLength(1);
  });
});

describe('a trial', () => {
  it('is reminded 3 days before it converts, then told it is active', async () => {
    const m = await seller();
    const plan = await m.product({
      name: 'Plan T',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1200 }],
      trial_interval: 'day',
      trial_interval_count: 7,
    });
    const buyer = m.alias('trial');
    const sub = await m.subscriptionOf(await m.buy(buyer, plan));
    expect(sub.status).toBe('trialing');
    await m.advance(plus(sub.trial_end, -2));
    const reminder = await world.mail(buyer, 'Your Plan T trial is ending soon');
    expect(reminder.text).toContain('$12.00 / month');
    await m.advance(plus(sub.trial_end, 1));
    expect((await world.mail(buyer, 'Your Plan T subscription is now active')).text).toContain('Total: $12.00');
    expect((await world.outbox(buyer)).filter(r => r.kind === 'subscription_trial_conversion_reminder')).toHaveLength(
      1,
    );
  });

  it('whose card fails at conversion is past due, and the customer is told', async () => {
    const m = await seller();
    const plan = await m.product({
      name: 'Plan F',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 900 }],
      trial_interval: 'day',
      trial_interval_count: 2,
    });
    const buyer = m.alias('failing');
    const sub = await m.subscriptionOf(await m.buy(buyer, plan, 'pm_card_chargeCustomerFail'));
    await m.advance(plus(sub.trial_end, 0.5));
    const pastDue = await world.mail(buyer, 'Your Plan F payment failed');
    expect(pastDue.text).toContain('We could not charge $9.00 / month');
    expect(world.link(pastDue.text, 'Update payment')).toContain(`/subscriptions/${sub.id}?login_token=`);
  });
});

describe('reminders', () => {
  it('a yearly plan is reminded 7 days before it renews, once', async () => {
    const m = await seller();
    const plan = await m.product({
      name: 'Plan Y',
      recurring_interval: 'year',
      prices: [{ amount_type: 'fixed', price_amount: 12000 }],
    });
    const buyer = m.alias('yearly');
    const sub = await m.subscriptionOf(await m.buy(buyer, plan));
    await m.advance(plus(sub.current_period_end, -6));
    const reminder = await world.mail(buyer, 'Your Plan Y subscription renews soon');
    expect(reminder.text).toContain('$120.00 / year');
    await m.advance(plus(sub.current_period_end, -3));
    expect((await world.outbox(buyer)).filter(r => r.kind === 'subscription_renewal_reminder')).toHaveLength(1);
  });

  it('a card that expires soon is named by brand and last four digits only, once for all it pays for', async () => {
    const m = await seller();
    const plan = await m.product({
      name: 'Plan C',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 700 }],
    });
    const other = await m.product({
      name: 'Plan D',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 300 }],
    });
    const buyer = m.alias('card');
    await m.subscriptionOf(await m.buy(buyer, plan));
    await m.subscriptionOf(await m.buy(buyer, other));
    // 12/2034 begins on 1 December: reminded 20 days before, per card (Polar's), naming both plans.
    await m.advance('2034-11-12T00:00:00.000Z');
    const reminder = await world.mail(buyer, 'Your card ending in 4242 expires soon');
    expect(reminder.text).toContain(
      'visa ending in 4242 expires at the end of 12/2034. It pays for your subscriptions to Plan C and Plan D.',
    );
    expect(reminder.text).toMatch(/Update payment method: \S+\/payment-methods\?login_token=/);
    expect(reminder.text).not.toMatch(/4242 4242|424242/);
    await m.advance('2034-11-20T00:00:00.000Z');
    expect((await world.outbox(buyer)).filter(r => r.kind === 'payment_method_expiration_reminder')).toHaveLength(1);
  });

  it('a kind switched off sends nothing', async () => {
    const m = await seller();
    await m.emailSettings({ subscription_renewal_reminder: false });
    const plan = await m.product({
      name: 'Plan Q',
      recurring_interval: 'year',
      prices: [{ amount_type: 'fixed', price_amount: 5000 }],
    });
    const buyer = m.alias('quiet');
    const sub = await m.subscriptionOf(await m.buy(buyer, plan));
    await m.advance(plus(sub.current_period_end, -6));
    const kinds = (await world.outbox(buyer)).map(r => r.kind);
    expect(kinds).toContain('subscription_confirmation');
    expect(kinds).not.toContain('subscription_renewal_reminder');
  });
});
