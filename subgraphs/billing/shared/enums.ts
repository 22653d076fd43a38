/** Polar's enums used across billing (docs/polar/resources.md, docs/polar/resources.md#discount). Stored as their string values. */
export enum RecurringInterval {
  DAY = 'day',
  WEEK = 'week',
  MONTH = 'month',
  YEAR = 'year',
}
export enum ProductVisibility {
  DRAFT = 'draft',
  PRIVATE = 'private',
  PUBLIC = 'public',
}
export enum PriceAmountType {
  FIXED = 'fixed',
  CUSTOM = 'custom',
  SEAT_BASED = 'seat_based',
  FREE = 'free',
  METERED_UNIT = 'metered_unit',
}
export enum CustomerType {
  INDIVIDUAL = 'individual',
  TEAM = 'team',
}
export enum DiscountType {
  FIXED = 'fixed',
  PERCENTAGE = 'percentage',
}
export enum DiscountDuration {
  ONCE = 'once',
  FOREVER = 'forever',
  REPEATING = 'repeating',
}

export enum SubscriptionStatus {
  INCOMPLETE = 'incomplete',
  INCOMPLETE_EXPIRED = 'incomplete_expired',
  TRIALING = 'trialing',
  ACTIVE = 'active',
  PAST_DUE = 'past_due',
  CANCELED = 'canceled',
  UNPAID = 'unpaid',
  PAUSED = 'paused',
}

/** Polar's status groups (server/polar/models/subscription.py), named once and reused. */
export const ACTIVE_STATUSES: ReadonlySet<SubscriptionStatus> = new Set([
  SubscriptionStatus.TRIALING,
  SubscriptionStatus.ACTIVE,
]);
export const BILLABLE_STATUSES: ReadonlySet<SubscriptionStatus> = new Set([
  ...ACTIVE_STATUSES,
  SubscriptionStatus.PAST_DUE,
]);
export const REVOKED_STATUSES: ReadonlySet<SubscriptionStatus> = new Set([
  SubscriptionStatus.CANCELED,
  SubscriptionStatus.UNPAID,
]);

export enum CustomerCancellationReason {
  CUSTOMER_SERVICE = 'customer_service',
  LOW_QUALITY = 'low_quality',
  MISSING_FEATURES = 'missing_features',
  SWITCHED_SERVICE = 'switched_service',
  TOO_COMPLEX = 'too_complex',
  TOO_EXPENSIVE = 'too_expensive',
  UNUSED = 'unused',
  OTHER = 'other',
}

/** Polar's ManualRefundReason: what a merchant may give when refunding (`dispute_prevention` is the processor's). */
export const MANUAL_REFUND_REASONS = [
  'duplicate',
  'fraudulent',
  'customer_request',
  'service_disruption',
  'satisfaction_guarantee',
  'other',
] as const;
