import { RecurringInterval, SubscriptionStatus } from '../../../shared/enums.js';
import {
  activateFromCheckout,
  applyScheduledChange,
  endAfterDunning,
  endAtPeriodEnd,
  markPastDue,
  pauseAtEnd,
  recoverFromDunning,
  renew,
  restartPeriod,
  resume,
} from '../lifecycle.js';
import { PERIOD_END, PERIOD_START, subscriptionState } from './fixtures.js';

/** The lifecycle's own transitions (renewals, dunning, resume, checkout), as tables. */
const START = PERIOD_START;
const AT = PERIOD_END;
const EARLIER = new Date('2026-03-05T00:00:00.000Z');
const subscription = subscriptionState;

const PENDING = {
  id: 'p',
  created_at: START.toISOString(),
  applies_at: AT.toISOString(),
  product_id: null,
  seats: 3,
};
const NEXT = { start: AT, end: new Date('2026-05-01T00:00:00.000Z') };

describe('renew', () => {
  it.each([
    [SubscriptionStatus.ACTIVE, ['subscription.cycled']],
    [SubscriptionStatus.TRIALING, ['subscription.cycled', 'subscription.active']],
  ])('a %s subscription starts its next period, active (events %j)', (status, events) => {
    const s = subscription({ status });
    expect(renew(s, NEXT, AT)).toEqual({ changed: true, events });
    expect(s).toMatchObject({
      status: SubscriptionStatus.ACTIVE,
      currentPeriodStart: NEXT.start,
      currentPeriodEnd: NEXT.end,
      modifiedAt: AT,
    });
  });
});

describe('dunning', () => {
  it.each([
    [SubscriptionStatus.ACTIVE, true, SubscriptionStatus.PAST_DUE, AT],
    [SubscriptionStatus.PAST_DUE, false, SubscriptionStatus.PAST_DUE, EARLIER],
  ])('markPastDue on %s: changed %s, status %s, past due since %s', (status, changed, after, since) => {
    const s = subscription({ status, pastDueAt: status === SubscriptionStatus.PAST_DUE ? EARLIER : null });
    const result = markPastDue(s, AT);
    expect(result.changed).toBe(changed);
    expect(result.events).toEqual(changed ? ['subscription.past_due'] : []);
    expect(s.status).toBe(after);
    expect(s.pastDueAt).toEqual(since);
  });

  it.each([
    [SubscriptionStatus.PAST_DUE, true, SubscriptionStatus.ACTIVE],
    [SubscriptionStatus.ACTIVE, false, SubscriptionStatus.ACTIVE],
  ])('recoverFromDunning on %s: changed %s, status %s', (status, changed, after) => {
    const s = subscription({ status, pastDueAt: EARLIER });
    const result = recoverFromDunning(s, AT);
    expect(result).toEqual({ changed, events: changed ? ['subscription.active'] : [] });
    expect(s.status).toBe(after);
    expect(s.pastDueAt).toEqual(changed ? null : EARLIER);
  });
});

describe('ends', () => {
  it.each([
    ['endAtPeriodEnd', endAtPeriodEnd, EARLIER, ['subscription.revoked'], EARLIER],
    ['endAfterDunning', endAfterDunning, null, ['subscription.canceled', 'subscription.revoked'], AT],
  ] as const)('%s: canceled now, canceled_at kept when set', (_name, end, canceledAt, events, expectedCanceledAt) => {
    const s = subscription({
      status: SubscriptionStatus.PAST_DUE,
      cancelAtPeriodEnd: canceledAt !== null,
      canceledAt,
      pendingUpdate: PENDING,
      pauseAtPeriodEnd: true,
      resumesAt: AT,
    });
    expect(end(s, AT)).toEqual({ changed: true, events: [...events] });
    expect(s).toMatchObject({
      status: SubscriptionStatus.CANCELED,
      cancelAtPeriodEnd: false,
      canceledAt: expectedCanceledAt,
      endsAt: AT,
      endedAt: AT,
      pendingUpdate: null,
      pauseAtPeriodEnd: false,
      resumesAt: null,
    });
  });
});

describe('pause and resume', () => {
  it('pauseAtEnd: paused from the period end, the request cleared', () => {
    const s = subscription({ pauseAtPeriodEnd: true, resumesAt: NEXT.end });
    expect(pauseAtEnd(s, AT)).toEqual({ changed: true, events: ['subscription.paused'] });
    expect(s).toMatchObject({ status: SubscriptionStatus.PAUSED, pauseAtPeriodEnd: false, pausedAt: AT });
  });

  it.each([
    [RecurringInterval.MONTH, 1, '2026-05-01T00:00:00.000Z'],
    [RecurringInterval.WEEK, 2, '2026-04-15T00:00:00.000Z'],
    [RecurringInterval.YEAR, 1, '2027-04-01T00:00:00.000Z'],
  ])('resume (%s × %i): active, a new period from now to %s', (interval, count, end) => {
    const s = subscription({
      status: SubscriptionStatus.PAUSED,
      pausedAt: START,
      resumesAt: AT,
      recurringInterval: interval,
      recurringIntervalCount: count,
    });
    expect(resume(s, AT)).toEqual({ changed: true, events: ['subscription.resumed'] });
    expect(s).toMatchObject({
      status: SubscriptionStatus.ACTIVE,
      pausedAt: null,
      resumesAt: null,
      currentPeriodStart: AT,
      currentPeriodEnd: new Date(end),
    });
  });

  it.each([
    ['scheduled', PENDING],
    ['none', null],
  ])('restartPeriod: the period restarts now; a scheduled change (%s) is superseded', (_what, pending) => {
    const s = subscription({ pendingUpdate: pending });
    restartPeriod(s, EARLIER);
    expect(s).toMatchObject({
      currentPeriodStart: EARLIER,
      currentPeriodEnd: new Date('2026-04-05T00:00:00.000Z'),
      pendingUpdate: null,
    });
  });
});

describe('applyScheduledChange', () => {
  const terms = {
    productId: 'product-b',
    priceIds: ['price-b'],
    amount: 5000n,
    currency: 'eur',
    recurringInterval: RecurringInterval.YEAR,
    recurringIntervalCount: 1,
    seats: null,
  };
  it.each([
    ['new product terms', { terms }, { productId: 'product-b', amount: 5000n, currency: 'eur', seats: null }],
    ['new seats', { seats: 3, amount: 3000n }, { productId: 'product-a', amount: 3000n, seats: 3 }],
    ['nothing billable (dropped)', null, { productId: 'product-a', amount: 1000n, seats: null }],
  ] as const)('%s: applied, the pending update cleared', (_what, change, expected) => {
    const s = subscription({ pendingUpdate: PENDING });
    expect(applyScheduledChange(s, change, AT)).toEqual({ changed: true, events: [] });
    expect(s).toMatchObject({ ...expected, pendingUpdate: null, modifiedAt: AT });
  });
});

describe('activateFromCheckout', () => {
  const base = {
    productId: 'product-paid',
    priceId: 'price-paid',
    amount: 2000n,
    currency: 'usd',
    discountId: null,
    checkoutId: 'checkout-1',
    seats: null,
  };
  it.each([
    [SubscriptionStatus.ACTIVE, { interval: RecurringInterval.MONTH, count: 1 }, [], EARLIER],
    [SubscriptionStatus.TRIALING, { interval: RecurringInterval.MONTH, count: 1 }, ['subscription.active'], EARLIER],
    [SubscriptionStatus.ACTIVE, null, [], START],
  ])('from %s with cadence %j: active on the paid product (events %j)', (status, cadence, events, periodStart) => {
    const s = subscription({ status });
    expect(activateFromCheckout(s, { ...base, cadence }, EARLIER)).toEqual({ changed: true, events });
    expect(s).toMatchObject({
      status: SubscriptionStatus.ACTIVE,
      productId: 'product-paid',
      priceIds: ['price-paid'],
      checkoutId: 'checkout-1',
      currentPeriodStart: periodStart,
      modifiedAt: EARLIER,
    });
  });
});
