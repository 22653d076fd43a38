import type { ValidationIssue } from '../../../kit/errors.js';
import { percentageOf } from '../../../kit/money/discounts.js';
import { metadataIssues } from '../shared/metadata.js';

/** The resolved state of a discount after a create or update, checked as a whole. */
export interface DiscountState {
  name: string;
  type: string;
  duration: string;
  durationInMonths: number | null;
  amount: bigint | null;
  currency: string | null;
  basisPoints: number | null;
  code: string | null;
  startsAt: Date | null;
  endsAt: Date | null;
  maxRedemptions: number | null;
  maxRedemptionsPerCustomer: number | null;
}

const DISCOUNT_TYPES = ['fixed', 'percentage'];
const DISCOUNT_DURATIONS = ['once', 'forever', 'repeating'];
const MAX_FIXED_AMOUNT = 999_999_999_999n;
const CODE_PATTERN = /^[^\s]{3,256}$/;

/** Polar's rules on the four kinds of discount (docs/polar/resources.md#discount). */
export function discountIssues(state: DiscountState, metadata?: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const enumIssue = (field: string, allowed: string[], input: unknown) =>
    issues.push({
      type: 'enum',
      loc: ['body', field],
      msg: `Input should be ${allowed
        .map(v => `'${v}'`)
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')}`,
      input,
    });
  if (state.name.trim().length < 1)
    issues.push({
      type: 'string_too_short',
      loc: ['body', 'name'],
      msg: 'String should have at least 1 character',
      input: state.name,
      ctx: { min_length: 1 },
    });
  if (!DISCOUNT_TYPES.includes(state.type)) enumIssue('type', DISCOUNT_TYPES, state.type);
  if (!DISCOUNT_DURATIONS.includes(state.duration)) enumIssue('duration', DISCOUNT_DURATIONS, state.duration);
  if (state.duration === 'repeating') {
    if (state.durationInMonths == null)
      issues.push({
        type: 'missing',
        loc: ['body', 'duration_in_months'],
        msg: 'duration_in_months is required for a repeating discount.',
        input: null,
      });
    else if (state.durationInMonths < 1 || state.durationInMonths > 999)
      issues.push({
        type: state.durationInMonths < 1 ? 'greater_than_equal' : 'less_than_equal',
        loc: ['body', 'duration_in_months'],
        msg:
          state.durationInMonths < 1
            ? 'Input should be greater than or equal to 1'
            : 'Input should be less than or equal to 999',
        input: state.durationInMonths,
      });
  }
  if (state.type === 'fixed') {
    if (state.amount == null)
      issues.push({
        type: 'missing',
        loc: ['body', 'amount'],
        msg: 'A fixed discount needs an amount (amounts or amount).',
        input: null,
      });
    else if (state.amount < 0n || state.amount > MAX_FIXED_AMOUNT)
      issues.push({
        type: state.amount < 0n ? 'greater_than_equal' : 'less_than_equal',
        loc: ['body', 'amount'],
        msg:
          state.amount < 0n
            ? 'Input should be greater than or equal to 0'
            : `Input should be less than or equal to ${MAX_FIXED_AMOUNT}`,
        input: Number(state.amount),
      });
    if (state.currency != null && !/^[a-z]{3}$/.test(state.currency))
      issues.push({
        type: 'string_pattern_mismatch',
        loc: ['body', 'currency'],
        msg: 'Input should be a three-letter ISO 4217 currency code',
        input: state.currency,
      });
  }
  if (state.type === 'percentage') {
    if (state.basisPoints == null)
      issues.push({ type: 'missing', loc: ['body', 'basis_points'], msg: 'Field required', input: null });
    else if (state.basisPoints < 1 || state.basisPoints > 10_000)
      issues.push({
        type: state.basisPoints < 1 ? 'greater_than_equal' : 'less_than_equal',
        loc: ['body', 'basis_points'],
        msg:
          state.basisPoints < 1
            ? 'Input should be greater than or equal to 1'
            : 'Input should be less than or equal to 10000',
        input: state.basisPoints,
      });
  }
  if (state.code != null && !CODE_PATTERN.test(state.code))
    issues.push({
      type: 'value_error',
      loc: ['body', 'code'],
      msg: 'A code has 3 to 256 characters and no spaces.',
      input: state.code,
    });
  if (state.startsAt && state.endsAt && state.endsAt <= state.startsAt)
    issues.push({
      type: 'value_error',
      loc: ['body', 'ends_at'],
      msg: 'ends_at must be after starts_at.',
      input: state.endsAt.toISOString(),
    });
  for (const field of ['maxRedemptions', 'maxRedemptionsPerCustomer'] as const) {
    const value = state[field];
    if (value != null && value < 1)
      issues.push({
        type: 'greater_than_equal',
        loc: ['body', field === 'maxRedemptions' ? 'max_redemptions' : 'max_redemptions_per_customer'],
        msg: 'Input should be greater than or equal to 1',
        input: value,
        ctx: { ge: 1 },
      });
  }
  if (metadata != null) issues.push(...metadataIssues(metadata));
  return issues;
}

/**
 * The amount off a price of `priceAmount` minor units: never more than the price, percentages rounded
 * by the money kit's one rule (`kit/money/rounding.ts`).
 */
export function discountAmountFor(
  discount: { type: string; amount: bigint | null; basisPoints: number | null },
  priceAmount: bigint,
): bigint {
  if (priceAmount <= 0n) return 0n;
  const off =
    discount.type === 'fixed' ? (discount.amount ?? 0n) : percentageOf(priceAmount, discount.basisPoints ?? 0);
  return off > priceAmount ? priceAmount : off;
}
