import { CustomerCancellationReason, RecurringInterval, SubscriptionStatus } from '../../../shared/enums.js';
import { addInterval } from '../../../time/calendar.js';
import {
  applyDiscount,
  cancelAtPeriodEnd,
  changeProduct,
  changeSeats,
  clearPendingUpdate,
  removeDiscount,
  revoke,
  schedulePendingUpdate,
  setBillingPeriodEnd,
  setTrialEnd,
  uncancel,
  updateMetadata,
} from '../requested.js';
import type { SubscriptionState, TransitionResult } from '../state.js';
import { PERIOD_END, PERIOD_START, subscriptionState } from './fixtures.js';

/** Table-driven tests of every named transition, allowed and forbidden (docs/polar/subscription-lifecycle.md, docs/interface.md#subscription-changes). */
const NOW = new Date('2026-03-10T12:00:00.000Z');

/** The caller's transitions are tested on a free subscription (amount 0) unless a row says otherwise. */
function subscription(overrides: Partial<SubscriptionState> = {}): SubscriptionState {
  return subscriptionState({ amount: 0n, ...overrides });
}

const CANCELED = {
  status: SubscriptionStatus.CANCELED,
  canceledAt: PERIOD_START,
  endsAt: PERIOD_START,
  endedAt: PERIOD_START,
};
const ENDING = { cancelAtPeriodEnd: true, canceledAt: PERIOD_START, endsAt: PERIOD_END };
const TERMS = {
  productId: 'product-b',
  priceIds: ['price-b'],
  amount: 0n,
  currency: 'usd',
  recurringInterval: RecurringInterval.MONTH,
  recurringIntervalCount: 1,
  seats: null,
};

type Transition = [name: string, apply: (s: SubscriptionState) => TransitionResult];
const TRANSITIONS: Transition[] = [
  ['cancelAtPeriodEnd', s => cancelAtPeriodEnd(s, {}, NOW)],
  ['revoke', s => revoke(s, {}, NOW)],
  ['changeProduct', s => changeProduct(s, TERMS, NOW)],
  ['changeSeats', s => changeSeats(s, 3, 0n, NOW)],
  ['schedulePendingUpdate', s => schedulePendingUpdate(s, { productId: 'product-b' }, NOW)],
  ['clearPendingUpdate', s => clearPendingUpdate(s, NOW)],
  ['applyDiscount', s => applyDiscount(s, 'discount-1', NOW)],
  ['removeDiscount', s => removeDiscount(s, NOW)],
  ['setTrialEnd', s => setTrialEnd(s, new Date('2026-05-01T00:00:00Z'), NOW)],
  ['setBillingPeriodEnd', s => setBillingPeriodEnd(s, new Date('2026-04-15T00:00:00Z'), NOW)],
  ['updateMetadata', s => updateMetadata(s, { a: 1 }, NOW)],
];

function errorOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    return `${(error as { code?: string }).code}:${(error as { status?: number }).status}`;
  }
}

describe('rule 1: nothing changes a canceled subscription or one set to cancel at period end', () => {
  const states: [string, Partial<SubscriptionState>][] = [
    ['canceled', CANCELED],
    ['unpaid', { status: SubscriptionStatus.UNPAID }],
    ['incomplete_expired', { status: SubscriptionStatus.INCOMPLETE_EXPIRED }],
    ['active, cancel at period end', ENDING],
    ['trialing, cancel at period end', { ...ENDING, status: SubscriptionStatus.TRIALING }],
    ['past_due, cancel at period end', { ...ENDING, status: SubscriptionStatus.PAST_DUE }],
  ];
  for (const [stateName, state] of states) {
    it.each(TRANSITIONS)(`${stateName}: %s → 403 AlreadyCanceledSubscription, nothing changed`, (_name, apply) => {
      const s = subscription(state);
      const before = JSON.stringify(s, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
      expect(errorOf(() => apply(s))).toBe('AlreadyCanceledSubscription:403');
      expect(JSON.stringify(s, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).toBe(before);
    });
  }
});

describe('cancelAtPeriodEnd', () => {
  it.each([SubscriptionStatus.ACTIVE, SubscriptionStatus.TRIALING, SubscriptionStatus.PAST_DUE])(
    'from %s: set to end with the period',
    status => {
      const s = subscription({ status, pauseAtPeriodEnd: true });
      const result = cancelAtPeriodEnd(s, { reason: CustomerCancellationReason.TOO_EXPENSIVE, comment: 'pricey' }, NOW);
      expect(result).toEqual({ changed: true, events: ['subscription.canceled'] });
      expect(s).toMatchObject({
        status,
        cancelAtPeriodEnd: true,
        canceledAt: NOW,
        endsAt: PERIOD_END,
        endedAt: null,
        modifiedAt: NOW,
        customerCancellationReason: 'too_expensive',
        customerCancellationComment: 'pricey',
        pauseAtPeriodEnd: false,
      });
    },
  );
  it.each([SubscriptionStatus.PAUSED, SubscriptionStatus.INCOMPLETE])('from %s (not billable) → 403', status => {
    expect(errorOf(() => cancelAtPeriodEnd(subscription({ status }), {}, NOW))).toBe('AlreadyCanceledSubscription:403');
  });
});

describe('uncancel', () => {
  it('clears the cancellation of a subscription set to cancel at period end', () => {
    const s = subscription({
      ...ENDING,
      customerCancellationReason: CustomerCancellationReason.UNUSED,
      customerCancellationComment: 'x',
    });
    expect(uncancel(s, NOW)).toEqual({ changed: true, events: ['subscription.uncanceled'] });
    expect(s).toMatchObject({
      cancelAtPeriodEnd: false,
      canceledAt: null,
      endsAt: null,
      customerCancellationReason: null,
      customerCancellationComment: null,
      modifiedAt: NOW,
    });
  });
  it.each<[string, Partial<SubscriptionState>, string]>([
    ['not set to cancel', {}, 'BadRequest:400'],
    ['canceled', CANCELED, 'AlreadyCanceledSubscription:403'],
    [
      'period already over',
      { ...ENDING, currentPeriodEnd: PERIOD_START, endsAt: PERIOD_START },
      'ResourceUnavailable:410',
    ],
    ['paused', { ...ENDING, status: SubscriptionStatus.PAUSED }, 'BadRequest:400'],
  ])('%s → refused', (_name, state, expected) => {
    expect(errorOf(() => uncancel(subscription(state), NOW))).toBe(expected);
  });
});

describe('revoke', () => {
  it.each([
    SubscriptionStatus.ACTIVE,
    SubscriptionStatus.TRIALING,
    SubscriptionStatus.PAST_DUE,
    SubscriptionStatus.PAUSED,
    SubscriptionStatus.INCOMPLETE,
  ])('from %s: canceled at once', status => {
    const s = subscription({
      status,
      pendingUpdate: {
        id: 'p',
        created_at: NOW.toISOString(),
        applies_at: PERIOD_END.toISOString(),
        product_id: 'b',
        seats: null,
      },
    });
    expect(revoke(s, { reason: CustomerCancellationReason.OTHER }, NOW)).toEqual({
      changed: true,
      events: ['subscription.canceled', 'subscription.revoked'],
    });
    expect(s).toMatchObject({
      status: 'canceled',
      canceledAt: NOW,
      endsAt: NOW,
      endedAt: NOW,
      pendingUpdate: null,
      cancelAtPeriodEnd: false,
      customerCancellationReason: 'other',
    });
  });
});

describe('product and seat changes', () => {
  it('changeProduct switches what is billed and drops a scheduled change', () => {
    const s = subscription({
      pendingUpdate: {
        id: 'p',
        created_at: NOW.toISOString(),
        applies_at: PERIOD_END.toISOString(),
        product_id: 'c',
        seats: null,
      },
    });
    expect(changeProduct(s, { ...TERMS, amount: 500n, recurringInterval: RecurringInterval.YEAR }, NOW).changed).toBe(
      true,
    );
    expect(s).toMatchObject({
      productId: 'product-b',
      priceIds: ['price-b'],
      amount: 500n,
      recurringInterval: 'year',
      pendingUpdate: null,
      modifiedAt: NOW,
    });
  });
  it('changeProduct to the same product is a no-op', () => {
    const s = subscription();
    expect(changeProduct(s, { ...TERMS, productId: 'product-a' }, NOW)).toEqual({ changed: false, events: [] });
    expect(s.modifiedAt).toBeNull();
  });
  it.each([SubscriptionStatus.PAUSED, SubscriptionStatus.INCOMPLETE])(
    'changeProduct from %s → 403 InactiveSubscription',
    status => {
      expect(errorOf(() => changeProduct(subscription({ status }), TERMS, NOW))).toBe('InactiveSubscription:403');
    },
  );
  it('changeSeats sets seats and amount', () => {
    const s = subscription({ seats: 2, amount: 200n });
    changeSeats(s, 5, 500n, NOW);
    expect(s).toMatchObject({ seats: 5, amount: 500n });
  });
  it('schedulePendingUpdate stores the change for the period end', () => {
    const s = subscription();
    schedulePendingUpdate(s, { productId: 'product-b', seats: null }, NOW);
    expect(s.pendingUpdate).toEqual({
      id: expect.any(String),
      created_at: NOW.toISOString(),
      applies_at: PERIOD_END.toISOString(),
      product_id: 'product-b',
      seats: null,
    });
    expect(s.productId).toBe('product-a');
    expect(clearPendingUpdate(s, NOW).changed).toBe(true);
    expect(s.pendingUpdate).toBeNull();
    expect(clearPendingUpdate(s, NOW).changed).toBe(false);
  });
});

describe('discounts and metadata', () => {
  it('applies, re-applies (no-op) and removes a discount', () => {
    const s = subscription();
    expect(applyDiscount(s, 'd1', NOW).changed).toBe(true);
    expect(applyDiscount(s, 'd1', NOW).changed).toBe(false);
    expect(removeDiscount(s, NOW).changed).toBe(true);
    expect(removeDiscount(s, NOW).changed).toBe(false);
  });
  it('replaces metadata', () => {
    const s = subscription({ metadata: { a: 'x' } });
    expect(updateMetadata(s, { b: true }, NOW).changed).toBe(true);
    expect(s.metadata).toEqual({ b: true });
  });
});

describe('trial and billing period', () => {
  const LATER = new Date('2026-05-01T00:00:00.000Z');
  it('a future trial end starts a trial on an active subscription', () => {
    const s = subscription();
    setTrialEnd(s, LATER, NOW);
    expect(s).toMatchObject({ status: 'trialing', trialStart: NOW, trialEnd: LATER, currentPeriodEnd: LATER });
  });
  it('moves the trial end of a trialing subscription', () => {
    const s = subscription({ status: SubscriptionStatus.TRIALING, trialStart: PERIOD_START, trialEnd: PERIOD_END });
    setTrialEnd(s, LATER, NOW);
    expect(s).toMatchObject({ status: 'trialing', trialStart: PERIOD_START, trialEnd: LATER, currentPeriodEnd: LATER });
  });
  it('"now" ends a trial and starts a new period', () => {
    const s = subscription({ status: SubscriptionStatus.TRIALING, trialStart: PERIOD_START, trialEnd: PERIOD_END });
    setTrialEnd(s, 'now', NOW);
    expect(s).toMatchObject({
      status: 'active',
      trialEnd: NOW,
      currentPeriodStart: NOW,
      currentPeriodEnd: new Date('2026-04-10T12:00:00.000Z'),
    });
  });
  it.each<[string, Partial<SubscriptionState>, Date | 'now', string]>([
    ['"now" when not trialing', {}, 'now', 'BadRequest:400'],
    ['past_due', { status: SubscriptionStatus.PAST_DUE }, LATER, 'InactiveSubscription:403'],
    ['paused', { status: SubscriptionStatus.PAUSED }, LATER, 'InactiveSubscription:403'],
  ])('setTrialEnd refused: %s', (_name, state, value, expected) => {
    expect(errorOf(() => setTrialEnd(subscription(state), value, NOW))).toBe(expected);
  });
  it('moves the billing period end; refused when not active', () => {
    const s = subscription();
    setBillingPeriodEnd(s, LATER, NOW);
    expect(s.currentPeriodEnd).toEqual(LATER);
    expect(errorOf(() => setBillingPeriodEnd(subscription({ status: SubscriptionStatus.PAST_DUE }), LATER, NOW))).toBe(
      'InactiveSubscription:403',
    );
  });
});

describe('addInterval', () => {
  it.each<[string, RecurringInterval, number, string]>([
    ['2026-01-31T00:00:00.000Z', RecurringInterval.MONTH, 1, '2026-02-28T00:00:00.000Z'],
    ['2024-01-31T00:00:00.000Z', RecurringInterval.MONTH, 1, '2024-02-29T00:00:00.000Z'],
    ['2026-01-15T10:00:00.000Z', RecurringInterval.MONTH, 3, '2026-04-15T10:00:00.000Z'],
    ['2024-02-29T00:00:00.000Z', RecurringInterval.YEAR, 1, '2025-02-28T00:00:00.000Z'],
    ['2026-01-01T00:00:00.000Z', RecurringInterval.WEEK, 2, '2026-01-15T00:00:00.000Z'],
    ['2026-01-01T00:00:00.000Z', RecurringInterval.DAY, 45, '2026-02-15T00:00:00.000Z'],
  ])('%s + %s %s', (start, interval, count, expected) => {
    expect(addInterval(new Date(start), interval, count).toISOString()).toBe(expected);
  });
});
