import { RecurringInterval, SubscriptionStatus } from '../../../shared/enums.js';
import type { LifecycleState } from '../lifecycle.js';

/** The period every table starts in: March 2026, monthly. */
export const PERIOD_START = new Date('2026-03-01T00:00:00.000Z');
export const PERIOD_END = new Date('2026-04-01T00:00:00.000Z');

/** An active monthly subscription in that period, with nothing scheduled; a table overrides what it tests. */
export function subscriptionState(overrides: Partial<LifecycleState> = {}): LifecycleState {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    status: SubscriptionStatus.ACTIVE,
    productId: 'product-a',
    priceIds: ['price-a'],
    amount: 1000n,
    currency: 'usd',
    recurringInterval: RecurringInterval.MONTH,
    recurringIntervalCount: 1,
    currentPeriodStart: PERIOD_START,
    currentPeriodEnd: PERIOD_END,
    trialStart: null,
    trialEnd: null,
    cancelAtPeriodEnd: false,
    canceledAt: null,
    endsAt: null,
    endedAt: null,
    pauseAtPeriodEnd: false,
    resumesAt: null,
    seats: null,
    discountId: null,
    customerCancellationReason: null,
    customerCancellationComment: null,
    metadata: {},
    pendingUpdate: null,
    modifiedAt: null,
    pausedAt: null,
    pastDueAt: null,
    checkoutId: null,
    ...overrides,
  };
}
