import { PolarRequestValidationError, type ValidationIssue } from '../../../kit/errors.js';
import { metadataIssues } from '../shared/metadata.js';
import { CustomerCancellationReason } from '../shared/enums.js';
import type { ProrationBehavior } from './subscription.charger.js';
import type { SubscriptionUpdateInput } from './subscription.inputs.js';

/** The input side of `PATCH /v1/subscriptions/{id}`: which alternative a body is, and the checks GraphQL clients get too. */
export type Alternative = 'base' | 'seats' | 'billing_period' | 'cancel' | 'revoke' | 'pause' | 'resume' | 'clear';

/** The fields of each alternative of SubscriptionUpdate (docs/polar/resources.md#subscription), with the required ones. */
export const ALTERNATIVES: Record<
  Alternative,
  { fields: (keyof SubscriptionUpdateInput)[]; required: (keyof SubscriptionUpdateInput)[] }
> = {
  base: {
    fields: ['metadata', 'productId', 'prorationBehavior', 'discountId', 'removeDiscount', 'trialEnd', 'endTrialNow'],
    required: [],
  },
  seats: { fields: ['seats', 'prorationBehavior'], required: ['seats'] },
  billing_period: { fields: ['currentBillingPeriodEnd'], required: ['currentBillingPeriodEnd'] },
  cancel: {
    fields: ['cancelAtPeriodEnd', 'customerCancellationReason', 'customerCancellationComment'],
    required: ['cancelAtPeriodEnd'],
  },
  revoke: { fields: ['revoke', 'customerCancellationReason', 'customerCancellationComment'], required: ['revoke'] },
  pause: { fields: ['pauseAtPeriodEnd', 'resumesAt'], required: ['pauseAtPeriodEnd'] },
  resume: { fields: ['resume'], required: ['resume'] },
  clear: { fields: ['clearPendingUpdate'], required: ['clearPendingUpdate'] },
};

const PRORATION_BEHAVIORS: readonly ProrationBehavior[] = ['invoice', 'prorate', 'next_period', 'reset'];
const CANCELLATION_REASONS = new Set<string>(Object.values(CustomerCancellationReason));

const FLAGS = new Set<keyof SubscriptionUpdateInput>(['removeDiscount', 'endTrialNow', 'clearPendingUpdate']);

/** The fields an input sets (null and absent are the same; a flag counts when true). */
export function presentFields(input: SubscriptionUpdateInput): (keyof SubscriptionUpdateInput)[] {
  return (Object.keys(input) as (keyof SubscriptionUpdateInput)[]).filter(k => {
    const value = input[k];
    if (value === undefined || value === null) return false;
    return FLAGS.has(k) ? value === true : true;
  });
}

/**
 * Which single alternative an input is (the REST edge has already checked this for REST bodies,
 * with pydantic's item for each variant). Nothing set: the empty SubscriptionUpdateBase.
 */
export function classifyUpdate(input: SubscriptionUpdateInput): Alternative {
  for (const field of ['revoke', 'resume'] as const) {
    if (input[field] === false) {
      throw new PolarRequestValidationError([
        {
          type: 'literal_error',
          loc: ['body', field],
          msg: 'Input should be True',
          input: false,
          ctx: { expected: 'True' },
        },
      ]);
    }
  }
  const present = presentFields(input);
  const matches = (Object.keys(ALTERNATIVES) as Alternative[]).filter(name => {
    const { fields, required } = ALTERNATIVES[name];
    return present.every(k => fields.includes(k)) && required.every(k => present.includes(k));
  });
  if (!matches.length) {
    throw new PolarRequestValidationError([
      {
        type: 'value_error',
        loc: ['body'],
        msg: `Fields ${present.join(', ')} do not form one alternative of SubscriptionUpdate.`,
        input,
      },
    ]);
  }
  return matches[0];
}

export function isEmptyBase(input: SubscriptionUpdateInput): boolean {
  return presentFields(input).length === 0;
}

/** Checks GraphQL clients get too (REST bodies have passed the same rules at the edge). */
export function checkInput(input: SubscriptionUpdateInput): void {
  const issues: ValidationIssue[] = [];
  if (input.metadata != null) issues.push(...metadataIssues(input.metadata));
  if (input.prorationBehavior != null && !PRORATION_BEHAVIORS.includes(input.prorationBehavior as ProrationBehavior)) {
    issues.push({
      type: 'enum',
      loc: ['body', 'proration_behavior'],
      msg: "Input should be 'invoice', 'prorate', 'next_period' or 'reset'",
      input: input.prorationBehavior,
    });
  }
  if (input.customerCancellationReason != null && !CANCELLATION_REASONS.has(input.customerCancellationReason)) {
    issues.push({
      type: 'enum',
      loc: ['body', 'customer_cancellation_reason'],
      msg: `Input should be ${[...CANCELLATION_REASONS].map(r => `'${r}'`).join(', ')}`,
      input: input.customerCancellationReason,
    });
  }
  if (input.seats != null && (!Number.isInteger(input.seats) || input.seats < 1)) {
    issues.push({
      type: 'greater_than_equal',
      loc: ['body', 'seats'],
      msg: 'Input should be greater than or equal to 1',
      input: input.seats,
      ctx: { ge: 1 },
    });
  }
  if (input.customerCancellationComment != null && input.customerCancellationComment.length > 2000) {
    issues.push({
      type: 'string_too_long',
      loc: ['body', 'customer_cancellation_comment'],
      msg: 'String should have at most 2000 characters',
      input: input.customerCancellationComment,
      ctx: { max_length: 2000 },
    });
  }
  if (issues.length) throw new PolarRequestValidationError(issues);
}

/** The request's behaviour, or null: the organization's (by direction) then applies. */
export function behaviorOf(value: string | null | undefined): ProrationBehavior | null {
  return (value as ProrationBehavior | null | undefined) ?? null;
}

export function reasonOf(value: string | null | undefined): CustomerCancellationReason | null {
  return value == null ? null : (value as CustomerCancellationReason);
}

/** pydantic's FutureDatetime, checked against the injected clock (sandbox time travel included). */
export function requireFuture(value: Date, field: string, now: Date): void {
  if (value.getTime() <= now.getTime()) {
    throw new PolarRequestValidationError([
      {
        type: 'datetime_future',
        loc: ['body', field],
        msg: 'Input should be in the future',
        input: value.toISOString(),
      },
    ]);
  }
}
