import type { EntityManager } from '@mikro-orm/postgresql';
import type { ValidationIssue } from '../../../kit/errors.js';
import { MeterRepository } from '../meters/meter.repository.js';
import { PriceAmountType } from '../shared/enums.js';
import type { ProductPriceInput } from './product.inputs.js';

/**
 * Polar's rules for a new `metered_unit` price (docs/usage-billing.md#metered-prices): `unit_amount` a decimal
 * > 0 with at most 17 digits, 12 of them decimals; `cap_amount` a 32-bit integer ≥ 0; `meter_id` required.
 * Pure; the rules that need the database are in `meteredPriceContextIssues`.
 */
export function meteredPriceIssues(price: ProductPriceInput, loc: (string | number)[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (price.meterId == null)
    issues.push({ type: 'missing', loc: [...loc, 'meter_id'], msg: 'Field required', input: price });
  else if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(price.meterId))
    issues.push({
      type: 'uuid_parsing',
      loc: [...loc, 'meter_id'],
      msg: 'Input should be a valid UUID',
      input: price.meterId,
    });
  issues.push(...unitAmountIssues(price.unitAmount, [...loc, 'unit_amount'], price));
  if (price.capAmount != null) {
    if (price.capAmount < 0n)
      issues.push({
        type: 'greater_than_equal',
        loc: [...loc, 'cap_amount'],
        msg: 'Input should be greater than or equal to 0',
        input: Number(price.capAmount),
        ctx: { ge: 0 },
      });
    else if (price.capAmount > 2147483647n)
      issues.push({
        type: 'less_than_equal',
        loc: [...loc, 'cap_amount'],
        msg: 'Input should be less than or equal to 2147483647',
        input: Number(price.capAmount),
        ctx: { le: 2147483647 },
      });
  }
  return issues;
}

const DECIMAL = /^[+-]?(\d+)(?:\.(\d*))?$|^[+-]?\.(\d+)$/;

/** Pydantic's Decimal(gt=0, max_digits=17, decimal_places=12) on `unit_amount`, with its messages. */
export function unitAmountIssues(
  value: string | null | undefined,
  loc: (string | number)[],
  whole: unknown,
): ValidationIssue[] {
  if (value == null) return [{ type: 'missing', loc, msg: 'Field required', input: whole }];
  const text = value.trim();
  const match = DECIMAL.exec(text);
  if (!match) return [{ type: 'decimal_parsing', loc, msg: 'Input should be a valid decimal', input: value }];
  const integer = (match[1] ?? '').replace(/^0+/, '');
  const fraction = (match[2] ?? match[3] ?? '').replace(/0+$/, '');
  if (text.startsWith('-') || !/[1-9]/.test(integer + fraction))
    return [{ type: 'greater_than', loc, msg: 'Input should be greater than 0', input: value, ctx: { gt: '0' } }];
  const issue = (type: string, msg: string, ctx: Record<string, number>): ValidationIssue[] => [
    { type, loc, msg, input: value, ctx },
  ];
  if (fraction.length > 12)
    return issue('decimal_max_places', 'Decimal input should have no more than 12 decimal places', {
      decimal_places: 12,
    });
  if (integer.length > 5)
    return issue('decimal_whole_digits', 'Decimal input should have no more than 5 digits before the decimal point', {
      whole_digits: 5,
    });
  if (integer.length + fraction.length > 17)
    return issue('decimal_max_digits', 'Decimal input should have no more than 17 digits in total', { max_digits: 17 });
  return [];
}

/**
 * The rules that read the database, as Polar's product service: a metered price needs a recurring product
 * (422 at the price), a meter of the product's organization (422 at `meter_id`, "Meter does not exist."),
 * and a meter appears once per currency among the product's prices.
 */
export async function meteredPriceContextIssues(
  em: EntityManager,
  organizationId: string,
  recurring: boolean,
  prices: readonly ProductPriceInput[],
  keptMeters: readonly { meterId: string | null; priceCurrency: string }[] = [],
): Promise<ValidationIssue[]> {
  const metered = prices
    .map((price, index) => ({ price, index }))
    .filter(({ price }) => price.id == null && price.amountType === PriceAmountType.METERED_UNIT && price.meterId);
  if (!metered.length) return [];
  const issues: ValidationIssue[] = [];
  const ids = [...new Set(metered.map(m => m.price.meterId!))];
  const found = await new MeterRepository(em).findManyOfOrganization(ids, organizationId);
  const known = new Set(found.map(m => m.id));
  const used = new Set(keptMeters.filter(k => k.meterId).map(k => `${k.priceCurrency}:${k.meterId}`));
  for (const { price, index } of metered) {
    const loc = ['body', 'prices', index];
    if (!recurring) {
      issues.push({
        type: 'value_error',
        loc,
        msg: 'Metered pricing is not supported on one-time products.',
        input: price,
      });
      continue;
    }
    if (!known.has(price.meterId!)) {
      issues.push({
        type: 'value_error',
        loc: [...loc, 'meter_id'],
        msg: 'Meter does not exist.',
        input: price.meterId,
      });
      continue;
    }
    const key = `${(price.priceCurrency ?? 'usd').toLowerCase()}:${price.meterId}`;
    if (used.has(key))
      issues.push({
        type: 'value_error',
        loc: [...loc, 'meter_id'],
        msg: 'Meter is already used for another price.',
        input: price.meterId,
      });
    used.add(key);
  }
  return issues;
}

/**
 * Sets the embedded `meter` (Polar's ProductPriceMeter) on metered prices built on the write path, so the
 * answer and the event payload of a create or update show it as the read path does (`priceJson`).
 */
export async function embedMeters(em: EntityManager, prices: readonly object[]): Promise<void> {
  const metered = prices as { meterId?: string | null; meter?: unknown }[];
  const ids = [...new Set(metered.map(p => p.meterId).filter((id): id is string => !!id))];
  if (!ids.length) return;
  const meters = new Map((await new MeterRepository(em).findMany(ids)).map(m => [m.id, m]));
  for (const price of metered) {
    const meter = price.meterId ? meters.get(price.meterId) : undefined;
    if (meter)
      price.meter = {
        id: meter.id,
        name: meter.name,
        unit: meter.unit,
        customLabel: meter.customLabel,
        customMultiplier: meter.customMultiplier,
      };
  }
}
