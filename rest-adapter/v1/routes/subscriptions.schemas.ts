import { z } from 'zod';
import { CustomerCancellationReason, SubscriptionStatus } from '../../../subgraphs/billing/contract.js';
import { customerResponse, metadataInput } from './customers.schemas.js';
import { toInstant } from './common.js';

/** Wire shapes of subscriptions (docs/polar/resources.md#subscription): query, bodies and the response, for validation and OpenAPI. */
const dateTime = z.iso.datetime({ offset: true });

/** One value or repeated keys (`?status=a&status=b`): always an array after parsing. */
const many = <T extends z.ZodType>(item: T) => z.array(item);

/** pydantic's lax boolean: true/false, 1/0, yes/no, on/off (any case). */
export const queryBoolean = z.string().transform((value, ctx) => {
  const v = value.toLowerCase();
  if (['true', '1', 'yes', 'on', 't', 'y'].includes(v)) return true;
  if (['false', '0', 'no', 'off', 'f', 'n'].includes(v)) return false;
  ctx.addIssue({ code: 'custom', message: 'Input should be a valid boolean, unable to interpret input', input: value });
  return z.NEVER;
});

/** A date-time; one without an offset is read as UTC (as pydantic does). */
export const queryDateTime = z.iso
  .datetime({ offset: true, local: true })
  .or(z.iso.date())
  .transform(value => {
    if (/^\d{4}-\d\d-\d\d$/.test(value)) return `${value}T00:00:00Z`;
    return /(Z|[+-]\d\d:?\d\d)$/i.test(value) ? value : `${value}Z`;
  })
  .transform(toInstant);

export const subscriptionStatus = z.enum(Object.values(SubscriptionStatus) as [string, ...string[]]);
export const cancellationReason = z.enum(Object.values(CustomerCancellationReason) as [string, ...string[]]);

export const subscriptionListFilters = {
  organization_id: many(z.uuid()).optional(),
  product_id: many(z.uuid()).optional(),
  customer_id: many(z.uuid()).optional(),
  external_customer_id: many(z.string()).optional(),
  discount_id: many(z.uuid()).optional(),
  active: queryBoolean.optional(),
  status: many(subscriptionStatus).optional(),
  cancel_at_period_end: queryBoolean.optional(),
  customer_cancellation_reason: many(cancellationReason).optional(),
  canceled_at_after: queryDateTime.optional(),
  canceled_at_before: queryDateTime.optional(),
  metadata: z.record(z.string(), z.array(z.string())).optional(),
};

/** SubscriptionCreateCustomer | SubscriptionCreateExternalCustomer (extra keys forbidden, as pydantic's). */
export const subscriptionCreateCustomer = z.strictObject({
  metadata: metadataInput.optional(),
  product_id: z.uuid(),
  customer_id: z.uuid(),
});
export const subscriptionCreateExternalCustomer = z.strictObject({
  metadata: metadataInput.optional(),
  product_id: z.uuid(),
  external_customer_id: z.string(),
});

type SubscriptionCreate = {
  metadata?: Record<string, string | number | boolean>;
  product_id: string;
  customer_id?: string;
  external_customer_id?: string;
};

const inputSchema = (schema: z.ZodType) => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
};

/**
 * An untagged union the way pydantic reports it in practice: the body is checked against the one
 * alternative `pick` chooses from its keys (so the 422 items are that alternative's), while the OpenAPI
 * document lists every alternative under `anyOf`.
 */
export function pickedUnion<T>(
  title: string,
  alternatives: readonly { title: string; schema: z.ZodType }[],
  pick: (body: unknown) => z.ZodType,
) {
  return z
    .unknown()
    .transform((body, ctx): T => {
      const parsed = pick(body).safeParse(body);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) ctx.addIssue(issue as never);
        return z.NEVER;
      }
      return parsed.data as T;
    })
    .meta({ title, anyOf: alternatives.map(a => ({ title: a.title, ...inputSchema(a.schema) })) });
}

/**
 * A body with `external_customer_id` (and no `customer_id`) is checked as the external alternative, any
 * other body as the customer-id one (so a body missing both answers `body.customer_id` "Field required").
 */
export const subscriptionCreateBody = pickedUnion<SubscriptionCreate>(
  'SubscriptionCreate',
  [
    { title: 'SubscriptionCreateCustomer', schema: subscriptionCreateCustomer },
    { title: 'SubscriptionCreateExternalCustomer', schema: subscriptionCreateExternalCustomer },
  ],
  body =>
    body && typeof body === 'object' && 'external_customer_id' in body && !('customer_id' in body)
      ? subscriptionCreateExternalCustomer
      : subscriptionCreateCustomer,
);

const anyObject = z.record(z.string(), z.unknown());

export const subscriptionUserResponse = z.object({
  id: z.uuid(),
  email: z.string().nullable(),
  public_name: z.string(),
  avatar_url: z.string().nullable(),
  github_username: z.string().nullable(),
});

export const subscriptionResponse = z.object({
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  id: z.uuid(),
  amount: z.number().int(),
  currency: z.string(),
  recurring_interval: z.enum(['day', 'week', 'month', 'year']),
  recurring_interval_count: z.number().int(),
  status: subscriptionStatus,
  current_period_start: dateTime,
  current_period_end: dateTime,
  current_meter_period_start: dateTime.nullable(),
  current_meter_period_end: dateTime.nullable(),
  trial_start: dateTime.nullable(),
  trial_end: dateTime.nullable(),
  cancel_at_period_end: z.boolean(),
  canceled_at: dateTime.nullable(),
  started_at: dateTime.nullable(),
  ends_at: dateTime.nullable(),
  ended_at: dateTime.nullable(),
  past_due_at: dateTime.nullable(),
  pause_at_period_end: z.boolean(),
  paused_at: dateTime.nullable(),
  resumes_at: dateTime.nullable(),
  customer_id: z.uuid(),
  product_id: z.uuid(),
  discount_id: z.uuid().nullable(),
  checkout_id: z.uuid().nullable(),
  seats: z.number().int().nullable(),
  units: z.number().int().nullable(),
  customer_cancellation_reason: cancellationReason.nullable(),
  customer_cancellation_comment: z.string().nullable(),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  custom_field_data: anyObject,
  customer: customerResponse,
  product: anyObject,
  discount: anyObject.nullable(),
  prices: z.array(anyObject),
  meters: z.array(anyObject),
  pending_update: z
    .object({
      created_at: dateTime,
      modified_at: dateTime.nullable(),
      id: z.uuid(),
      applies_at: dateTime,
      product_id: z.uuid().nullable(),
      seats: z.number().int().nullable(),
      units: z.number().int().nullable(),
    })
    .nullable(),
  price_id: z.uuid().meta({ deprecated: true, description: 'Deprecated: prices[0].id' }),
  price: anyObject.meta({ deprecated: true, description: 'Deprecated: prices[0]' }),
  user_id: z.uuid().meta({ deprecated: true, description: 'Deprecated: the customer id' }),
  user: subscriptionUserResponse.meta({ deprecated: true, description: 'Deprecated: built from the customer' }),
});
