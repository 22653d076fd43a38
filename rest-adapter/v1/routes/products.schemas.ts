import { graphqlInt } from './common.js';
import { z } from 'zod';
import { metadataInput, metadataOutput } from './metadata.schemas.js';
import { pydanticIssue } from '../validation.js';

/** Wire shapes of products (docs/polar/resources.md#product-and-prices): request bodies and the response, for validation and OpenAPI. */
const interval = z.enum(['day', 'week', 'month', 'year']);
const visibility = z.enum(['draft', 'private', 'public']);
const currency = z.string().regex(/^[a-zA-Z]{3}$/, 'Input should be a three-letter ISO 4217 currency code');
const taxBehavior = z.enum(['location', 'inclusive', 'exclusive']);
const money = z.number().int().gte(0).lte(Number.MAX_SAFE_INTEGER);

const commonPriceCreate = { price_currency: currency.default('usd'), tax_behavior: taxBehavior.nullish() };

export const priceCreate = z.discriminatedUnion('amount_type', [
  z.object({ amount_type: z.literal('fixed'), ...commonPriceCreate, price_amount: money }),
  z.object({
    amount_type: z.literal('custom'),
    ...commonPriceCreate,
    minimum_amount: money.default(50),
    maximum_amount: money.gte(1).nullish(),
    preset_amount: money.nullish(),
  }),
  z.object({
    amount_type: z.literal('seat_based'),
    ...commonPriceCreate,
    seat_tiers: z.object({
      seat_tier_type: z.enum(['volume', 'graduated']).default('volume'),
      tiers: z
        .array(
          z.object({
            min_seats: graphqlInt().gte(1),
            max_seats: graphqlInt().gte(1).nullish(),
            price_per_seat: money,
          }),
        )
        .min(1),
    }),
  }),
  // Polar's ProductPriceMeteredUnitCreate; `unit_amount` (number or string) goes on as its exact text, and the
  // subgraph checks it as Polar's Decimal (docs/usage-billing.md#metered-prices).
  z.object({
    amount_type: z.literal('metered_unit'),
    ...commonPriceCreate,
    meter_id: z.uuid(),
    unit_amount: z.union([z.number(), z.string()]).transform(v => String(v)),
    cap_amount: z.number().int().gte(0).lte(2147483647).nullish(),
  }),
  // Removed from Polar in 2026-06 (a $0 price is now `fixed` 0); the Speakeasy SDK 0.48.1 still sends it.
  z.object({ amount_type: z.literal('free'), ...commonPriceCreate }),
]);

const existingPrice = z.object({ id: z.uuid() });

/** Polar's AttachedCustomFieldCreate (docs/custom-fields.md#on-products). */
const attachedCustomFieldCreate = z.object({ custom_field_id: z.uuid(), required: z.boolean() });

const productFields = {
  name: z.string().min(3).max(64),
  description: z.string().nullish(),
  visibility: visibility.default('public'),
  metadata: metadataInput.optional(),
  medias: z.array(z.uuid()).nullish(),
  attached_custom_fields: z.array(attachedCustomFieldCreate).optional(),
  trial_interval: interval.nullish(),
  trial_interval_count: z.number().int().gte(1).lte(1000).nullish(),
};

/** `ProductCreateRecurring | ProductCreateOneTime`: one-time when `recurring_interval` is absent or null. */
export const productCreateBody = z.object({
  ...productFields,
  organization_id: z.uuid().nullish(),
  recurring_interval: interval.nullish(),
  recurring_interval_count: z.number().int().gte(1).lte(999).nullish(),
  // A separate meter cycle is behind Polar's `meter_cycling_enabled` flag, off by default: refused as Polar does
  // (docs/usage-billing.md#metered-prices).
  meter_interval: interval.nullish().superRefine((value, ctx) => {
    if (value != null)
      pydanticIssue(ctx, value, 'value_error', 'Separate meter cycling is not enabled for this organization.');
  }),
  meter_interval_count: z.number().int().gte(1).nullish(),
  prices: z.array(priceCreate).min(1),
});

export const productUpdateBody = z.object({
  name: productFields.name.nullish(),
  description: z.string().nullish(),
  visibility: visibility.nullish(),
  metadata: metadataInput.optional(),
  medias: z.array(z.uuid()).nullish(),
  attached_custom_fields: z.array(attachedCustomFieldCreate).nullish(),
  trial_interval: interval.nullish(),
  trial_interval_count: z.number().int().gte(1).lte(1000).nullish(),
  recurring_interval: interval.nullish(),
  recurring_interval_count: z.number().int().gte(1).lte(999).nullish(),
  is_archived: z.boolean().nullish(),
  prices: z
    .array(z.union([existingPrice, priceCreate]))
    .min(1)
    .nullish(),
});

const dateTime = z.iso.datetime({ offset: true });

const commonPrice = {
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  id: z.uuid(),
  source: z.enum(['catalog', 'ad_hoc']),
  price_currency: z.string(),
  tax_behavior: taxBehavior.nullable(),
  is_archived: z.boolean(),
  product_id: z.uuid(),
  type: z.enum(['one_time', 'recurring']),
  recurring_interval: interval.nullable(),
};

const seatTiersOutput = z.object({
  seat_tier_type: z.enum(['volume', 'graduated']),
  tiers: z.array(
    z.object({ min_seats: z.number().int(), max_seats: z.number().int().nullable(), price_per_seat: z.number().int() }),
  ),
  minimum_seats: z.number().int(),
  maximum_seats: z.number().int().nullable(),
});

export const productPriceResponse = z.discriminatedUnion('amount_type', [
  z.object({ ...commonPrice, amount_type: z.literal('fixed'), price_amount: z.number().int() }),
  z.object({
    ...commonPrice,
    amount_type: z.literal('custom'),
    minimum_amount: z.number().int(),
    maximum_amount: z.number().int().nullable(),
    preset_amount: z.number().int().nullable(),
  }),
  z.object({
    ...commonPrice,
    amount_type: z.literal('seat_based'),
    seat_tiers: seatTiersOutput,
    price_per_seat: z.number().int(),
  }),
  z.object({ ...commonPrice, amount_type: z.literal('free') }),
  z.object({
    ...commonPrice,
    amount_type: z.literal('metered_unit'),
    cap_amount: z.number().int().nullable(),
    meter_id: z.uuid(),
    meter: z.object({
      id: z.uuid(),
      name: z.string(),
      unit: z.enum(['scalar', 'token', 'custom']),
      custom_label: z.string().nullable(),
      custom_multiplier: z.number().int().nullable(),
    }),
    unit_amount: z.string(),
  }),
]);

/** Product fields without prices, benefits, medias and custom fields (`DiscountProduct` reuses them). */
export const productBaseResponse = z.object({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  trial_interval: interval.nullable(),
  trial_interval_count: z.number().int().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  visibility,
  recurring_interval: interval.nullable(),
  recurring_interval_count: z.number().int().nullable(),
  meter_interval: interval.nullable(),
  meter_interval_count: z.number().int().nullable(),
  is_recurring: z.boolean(),
  is_archived: z.boolean(),
  organization_id: z.uuid(),
  metadata: metadataOutput,
});

export const productResponse = productBaseResponse.extend({
  is_deletable: z.boolean(),
  prices: z.array(productPriceResponse),
  benefits: z.array(z.record(z.string(), z.unknown())),
  medias: z.array(z.record(z.string(), z.unknown())),
  attached_custom_fields: z.array(z.record(z.string(), z.unknown())),
});
