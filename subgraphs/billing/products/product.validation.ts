import type { ValidationIssue } from '../../../kit/errors.js';
import { metadataIssues } from '../shared/metadata.js';
import { PriceAmountType, ProductVisibility, RecurringInterval } from '../shared/enums.js';
import { meteredPriceIssues } from './metered-price.validation.js';
import type { ProductPriceInput } from './product.inputs.js';

/**
 * Business rules on product fields, checked in the subgraph so GraphQL clients get the same answers
 * as REST clients (whose bodies the adapter has already shape-checked). Locations are the wire's.
 */
const INTERVALS = Object.values(RecurringInterval) as string[];
const VISIBILITIES = Object.values(ProductVisibility) as string[];
const AMOUNT_TYPES = Object.values(PriceAmountType) as string[];
const TAX_BEHAVIORS = ['location', 'inclusive', 'exclusive'];
const SEAT_TIER_TYPES = ['volume', 'graduated'];
/** Polar's default minimum of a pay-what-you-want price. */
export const DEFAULT_CUSTOM_MINIMUM = 50n;

const enumIssue = (loc: (string | number)[], allowed: string[], input: unknown): ValidationIssue => ({
  type: 'enum',
  loc,
  msg: `Input should be ${allowed
    .map(v => `'${v}'`)
    .join(', ')
    .replace(/, ([^,]*)$/, ' or $1')}`,
  input,
  ctx: { expected: allowed.map(v => `'${v}'`).join(', ') },
});

const rangeIssues = (
  value: number | null | undefined,
  min: number,
  max: number,
  loc: (string | number)[],
): ValidationIssue[] => {
  if (value == null) return [];
  if (value < min)
    return [
      {
        type: 'greater_than_equal',
        loc,
        msg: `Input should be greater than or equal to ${min}`,
        input: value,
        ctx: { ge: min },
      },
    ];
  if (value > max)
    return [
      {
        type: 'less_than_equal',
        loc,
        msg: `Input should be less than or equal to ${max}`,
        input: value,
        ctx: { le: max },
      },
    ];
  return [];
};

export interface ProductFieldsToCheck {
  name?: string | null;
  visibility?: string | null;
  recurringInterval?: string | null;
  recurringIntervalCount?: number | null;
  trialInterval?: string | null;
  trialIntervalCount?: number | null;
  metadata?: unknown;
}

export function productFieldIssues(fields: ProductFieldsToCheck): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (fields.name != null) {
    const length = fields.name.trim().length;
    if (length < 3)
      issues.push({
        type: 'string_too_short',
        loc: ['body', 'name'],
        msg: 'String should have at least 3 characters',
        input: fields.name,
        ctx: { min_length: 3 },
      });
    else if (fields.name.length > 64)
      issues.push({
        type: 'string_too_long',
        loc: ['body', 'name'],
        msg: 'String should have at most 64 characters',
        input: fields.name,
        ctx: { max_length: 64 },
      });
  }
  if (fields.visibility != null && !VISIBILITIES.includes(fields.visibility))
    issues.push(enumIssue(['body', 'visibility'], VISIBILITIES, fields.visibility));
  if (fields.recurringInterval != null && !INTERVALS.includes(fields.recurringInterval))
    issues.push(enumIssue(['body', 'recurring_interval'], INTERVALS, fields.recurringInterval));
  if (fields.trialInterval != null && !INTERVALS.includes(fields.trialInterval))
    issues.push(enumIssue(['body', 'trial_interval'], INTERVALS, fields.trialInterval));
  issues.push(...rangeIssues(fields.recurringIntervalCount, 1, 999, ['body', 'recurring_interval_count']));
  issues.push(...rangeIssues(fields.trialIntervalCount, 1, 1000, ['body', 'trial_interval_count']));
  if (fields.metadata != null) issues.push(...metadataIssues(fields.metadata));
  return issues;
}

/** Checks new prices (entries without `id`); `allowExisting` lets `{id}` entries through (update). */
export function priceIssues(prices: readonly ProductPriceInput[], allowExisting: boolean): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (prices.length < 1) {
    issues.push({
      type: 'too_short',
      loc: ['body', 'prices'],
      msg: 'List should have at least 1 item after validation, not 0',
      input: [],
      ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
    });
  }
  const staticCurrencies = new Set<string>();
  prices.forEach((price, i) => {
    const loc = ['body', 'prices', i];
    if (price.id != null) {
      if (!allowExisting)
        issues.push({
          type: 'extra_forbidden',
          loc: [...loc, 'id'],
          msg: 'Extra inputs are not permitted',
          input: price.id,
        });
      return;
    }
    if (price.amountType == null) {
      issues.push({ type: 'missing', loc: [...loc, 'amount_type'], msg: 'Field required', input: price });
      return;
    }
    if (!AMOUNT_TYPES.includes(price.amountType)) {
      issues.push(enumIssue([...loc, 'amount_type'], AMOUNT_TYPES, price.amountType));
      return;
    }
    const currency = (price.priceCurrency ?? 'usd').toLowerCase();
    if (!/^[a-z]{3}$/.test(currency))
      issues.push({
        type: 'string_pattern_mismatch',
        loc: [...loc, 'price_currency'],
        msg: 'Input should be a three-letter ISO 4217 currency code',
        input: price.priceCurrency,
      });
    if (price.taxBehavior != null && !TAX_BEHAVIORS.includes(price.taxBehavior))
      issues.push(enumIssue([...loc, 'tax_behavior'], TAX_BEHAVIORS, price.taxBehavior));
    // Metered prices sit beside the static one, any number of them (one per meter).
    if (price.amountType === PriceAmountType.METERED_UNIT) {
      issues.push(...meteredPriceIssues(price, loc));
      return;
    }
    if (staticCurrencies.has(currency)) {
      issues.push({
        type: 'value_error',
        loc: ['body', 'prices'],
        msg: `Only one static price per currency is allowed (${currency}).`,
        input: currency,
      });
    }
    staticCurrencies.add(currency);
    const nonNegative = (value: bigint | null | undefined, field: string, min = 0n) => {
      if (value != null && value < min)
        issues.push({
          type: 'greater_than_equal',
          loc: [...loc, field],
          msg: `Input should be greater than or equal to ${min}`,
          input: Number(value),
          ctx: { ge: Number(min) },
        });
    };
    switch (price.amountType) {
      case PriceAmountType.FIXED:
        if (price.priceAmount == null)
          issues.push({ type: 'missing', loc: [...loc, 'price_amount'], msg: 'Field required', input: price });
        nonNegative(price.priceAmount, 'price_amount');
        break;
      case PriceAmountType.CUSTOM: {
        nonNegative(price.minimumAmount, 'minimum_amount');
        nonNegative(price.maximumAmount, 'maximum_amount', 1n);
        nonNegative(price.presetAmount, 'preset_amount');
        const minimum = price.minimumAmount ?? DEFAULT_CUSTOM_MINIMUM;
        if (price.maximumAmount != null && price.maximumAmount < minimum) {
          issues.push({
            type: 'value_error',
            loc: [...loc, 'maximum_amount'],
            msg: 'The maximum amount must be greater than or equal to the minimum amount.',
            input: Number(price.maximumAmount),
          });
        }
        if (
          price.presetAmount != null &&
          (price.presetAmount < minimum || (price.maximumAmount != null && price.presetAmount > price.maximumAmount))
        ) {
          issues.push({
            type: 'value_error',
            loc: [...loc, 'preset_amount'],
            msg: 'The preset amount must be between the minimum and maximum amounts.',
            input: Number(price.presetAmount),
          });
        }
        break;
      }
      case PriceAmountType.SEAT_BASED:
        issues.push(...seatTierIssues(price, [...loc, 'seat_tiers']));
        break;
      default:
        break;
    }
  });
  return issues;
}

/** Tiers start at 1 seat, follow each other without gaps, and only the last may be open-ended. */
function seatTierIssues(price: ProductPriceInput, loc: (string | number)[]): ValidationIssue[] {
  const tiers = price.seatTiers?.tiers;
  if (!price.seatTiers || !tiers) return [{ type: 'missing', loc, msg: 'Field required', input: price }];
  const issues: ValidationIssue[] = [];
  if (price.seatTiers.seatTierType != null && !SEAT_TIER_TYPES.includes(price.seatTiers.seatTierType))
    issues.push(enumIssue([...loc, 'seat_tier_type'], SEAT_TIER_TYPES, price.seatTiers.seatTierType));
  if (!tiers.length)
    return [
      ...issues,
      {
        type: 'too_short',
        loc: [...loc, 'tiers'],
        msg: 'List should have at least 1 item after validation, not 0',
        input: [],
        ctx: { min_length: 1 },
      },
    ];
  let expectedMin = 1;
  tiers.forEach((tier, i) => {
    const tierLoc = [...loc, 'tiers', i];
    if (tier.pricePerSeat < 0n)
      issues.push({
        type: 'greater_than_equal',
        loc: [...tierLoc, 'price_per_seat'],
        msg: 'Input should be greater than or equal to 0',
        input: Number(tier.pricePerSeat),
        ctx: { ge: 0 },
      });
    if (tier.minSeats !== expectedMin) {
      issues.push({
        type: 'value_error',
        loc: [...tierLoc, 'min_seats'],
        msg:
          i === 0
            ? 'The first tier must start at 1 seat.'
            : 'Tiers must be contiguous: each tier starts one seat after the previous one ends.',
        input: tier.minSeats,
      });
    }
    const last = i === tiers.length - 1;
    if (tier.maxSeats == null) {
      if (!last)
        issues.push({
          type: 'value_error',
          loc: [...tierLoc, 'max_seats'],
          msg: 'Only the last tier may have no maximum.',
          input: null,
        });
    } else {
      if (tier.maxSeats < tier.minSeats)
        issues.push({
          type: 'value_error',
          loc: [...tierLoc, 'max_seats'],
          msg: 'max_seats must be greater than or equal to min_seats.',
          input: tier.maxSeats,
        });
      expectedMin = tier.maxSeats + 1;
    }
  });
  return issues;
}
