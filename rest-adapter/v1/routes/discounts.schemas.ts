import { graphqlInt, requestDateTime } from './common.js';
import { z } from 'zod';
import { metadataInput, metadataOutput } from './metadata.schemas.js';
import { productBaseResponse } from './products.schemas.js';

/** Wire shapes of discounts (docs/polar/resources.md#discount): request bodies and the four response kinds. */
const currency = z.string().regex(/^[a-zA-Z]{3}$/, 'Input should be a three-letter ISO 4217 currency code');
const duration = z.enum(['once', 'forever', 'repeating']);
const amount = z.number().int().gte(0).lte(999_999_999_999);
const dateTime = z.iso.datetime({ offset: true });

const shared = {
  metadata: metadataInput.optional(),
  code: z.string().nullish(),
  starts_at: requestDateTime.nullish(),
  ends_at: requestDateTime.nullish(),
  max_redemptions: graphqlInt().gte(1).nullish(),
  max_redemptions_per_customer: graphqlInt().gte(1).nullish(),
  products: z.array(z.uuid()).nullish(),
  duration_in_months: z.number().int().gte(1).lte(999).nullish(),
};

const createShared = { ...shared, name: z.string().min(1), organization_id: z.uuid().nullish(), duration };

/** `DiscountFixedCreate | DiscountPercentageCreate`, discriminated on `type`. */
export const discountCreateBody = z.discriminatedUnion('type', [
  z.object({
    ...createShared,
    type: z.literal('fixed'),
    amount: amount.nullish(),
    currency: currency.nullish(),
    amounts: z.record(currency, amount).nullish(),
  }),
  z.object({ ...createShared, type: z.literal('percentage'), basis_points: z.number().int().gte(1).lte(10_000) }),
]);

export const discountUpdateBody = z.object({
  ...shared,
  name: z.string().min(1).nullish(),
  duration: duration.nullish(),
  type: z.enum(['fixed', 'percentage']).nullish(),
  amount: amount.nullish(),
  currency: currency.nullish(),
  amounts: z.record(currency, amount).nullish(),
  basis_points: z.number().int().gte(1).lte(10_000).nullish(),
});

const common = {
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  id: z.uuid(),
  metadata: metadataOutput,
  name: z.string(),
  code: z.string().nullable(),
  starts_at: dateTime.nullable(),
  ends_at: dateTime.nullable(),
  max_redemptions: z.number().int().nullable(),
  max_redemptions_per_customer: z.number().int().nullable(),
  redemptions_count: z.number().int(),
  organization_id: z.uuid(),
};
const fixed = {
  type: z.literal('fixed'),
  amount: z.number().int(),
  currency: z.string(),
  amounts: z.record(z.string(), z.number().int()),
};
const percentage = { type: z.literal('percentage'), basis_points: z.number().int() };
const onceForever = { duration: z.enum(['once', 'forever']) };
const repeat = { duration: z.literal('repeating'), duration_in_months: z.number().int() };

/** The `Discount…Base` kinds embedded in subscriptions and orders (no `products`). */
export const discountBaseResponse = z.union([
  z.object({ ...common, ...fixed, ...onceForever }),
  z.object({ ...common, ...fixed, ...repeat }),
  z.object({ ...common, ...percentage, ...onceForever }),
  z.object({ ...common, ...percentage, ...repeat }),
]);

const products = { products: z.array(productBaseResponse) };
export const discountResponse = z.union([
  z.object({ ...common, ...fixed, ...onceForever, ...products }),
  z.object({ ...common, ...fixed, ...repeat, ...products }),
  z.object({ ...common, ...percentage, ...onceForever, ...products }),
  z.object({ ...common, ...percentage, ...repeat, ...products }),
]);
