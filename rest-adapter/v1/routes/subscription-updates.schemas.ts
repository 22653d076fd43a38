import { graphqlInt, requestDateTime } from './common.js';
import { z } from 'zod';
import { cancellationReason, pickedUnion } from './subscriptions.schemas.js';
import { metadataInput } from './customers.schemas.js';

/**
 * `SubscriptionUpdate` (docs/polar/resources.md#subscription): an untagged union whose members forbid extra keys, so a
 * body mixing two alternatives is 422 and `{}` is the (empty) SubscriptionUpdateBase. The alternative
 * a body is checked against is picked by its distinguishing key, which is how pydantic's smart union
 * reports it in practice: `{"seats": 2, "revoke": true}` answers `body.seats` "Extra inputs are not
 * permitted" from SubscriptionRevoke.
 */
const dateTime = requestDateTime;
const prorationBehavior = z.enum(['invoice', 'prorate', 'next_period', 'reset']);

export const subscriptionUpdateBase = z.strictObject({
  metadata: metadataInput.optional(),
  product_id: z.uuid().nullish(),
  proration_behavior: prorationBehavior.nullish(),
  discount_id: z.uuid().nullish(),
  trial_end: z.union([dateTime, z.literal('now')]).nullish(),
});
export const subscriptionUpdateSeats = z.strictObject({
  seats: graphqlInt().gte(1),
  proration_behavior: prorationBehavior.nullish(),
});
export const subscriptionUpdateBillingPeriod = z.strictObject({ current_billing_period_end: dateTime });
export const subscriptionCancel = z.strictObject({
  customer_cancellation_reason: cancellationReason.nullish(),
  customer_cancellation_comment: z.string().nullish(),
  cancel_at_period_end: z.boolean(),
});
export const subscriptionRevoke = z.strictObject({
  customer_cancellation_reason: cancellationReason.nullish(),
  customer_cancellation_comment: z.string().nullish(),
  revoke: z.literal(true),
});
/** Polar's `SubscriptionPause` (false: drop the scheduled pause) and `SubscriptionResume`. */
export const subscriptionPause = z.strictObject({
  pause_at_period_end: z.boolean(),
  resumes_at: dateTime.nullish(),
});
export const subscriptionResume = z.strictObject({ resume: z.literal(true) });
export const subscriptionUpdateClear = z.strictObject({ pending_update: z.null() });

const ALTERNATIVES = [
  ['revoke', 'SubscriptionRevoke', subscriptionRevoke],
  ['cancel_at_period_end', 'SubscriptionCancel', subscriptionCancel],
  ['pause_at_period_end', 'SubscriptionPause', subscriptionPause],
  ['resume', 'SubscriptionResume', subscriptionResume],
  ['pending_update', 'SubscriptionUpdateClear', subscriptionUpdateClear],
  ['current_billing_period_end', 'SubscriptionUpdateBillingPeriod', subscriptionUpdateBillingPeriod],
  ['seats', 'SubscriptionUpdateSeats', subscriptionUpdateSeats],
] as const;

export type SubscriptionUpdateBody = Record<string, unknown>;

export const subscriptionUpdateBody = pickedUnion<SubscriptionUpdateBody>(
  'SubscriptionUpdate',
  [
    { title: 'SubscriptionUpdateBase', schema: subscriptionUpdateBase },
    ...ALTERNATIVES.map(([, title, schema]) => ({ title, schema })),
  ],
  body => {
    const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
    return ALTERNATIVES.find(([key]) => keys.includes(key))?.[2] ?? subscriptionUpdateBase;
  },
);

/** The wire body → `SubscriptionUpdateInput` (explicit nulls become the input's flags). */
export function subscriptionUpdateVariables(body: SubscriptionUpdateBody): Record<string, unknown> {
  const b = body as Record<string, any>;
  if ('revoke' in b)
    return {
      revoke: true,
      customerCancellationReason: b.customer_cancellation_reason ?? null,
      customerCancellationComment: b.customer_cancellation_comment ?? null,
    };
  if ('cancel_at_period_end' in b)
    return {
      cancelAtPeriodEnd: b.cancel_at_period_end,
      customerCancellationReason: b.customer_cancellation_reason ?? null,
      customerCancellationComment: b.customer_cancellation_comment ?? null,
    };
  if ('pause_at_period_end' in b) return { pauseAtPeriodEnd: b.pause_at_period_end, resumesAt: b.resumes_at ?? null };
  if ('resume' in b) return { resume: true };
  if ('pending_update' in b) return { clearPendingUpdate: true };
  if ('current_billing_period_end' in b) return { currentBillingPeriodEnd: b.current_billing_period_end };
  if ('seats' in b) return { seats: b.seats, prorationBehavior: b.proration_behavior ?? null };
  return {
    metadata: b.metadata ?? null,
    productId: b.product_id ?? null,
    prorationBehavior: b.proration_behavior ?? null,
    discountId: b.discount_id ?? null,
    removeDiscount: 'discount_id' in b && b.discount_id === null ? true : null,
    trialEnd: b.trial_end && b.trial_end !== 'now' ? b.trial_end : null,
    endTrialNow: b.trial_end === 'now' ? true : null,
  };
}

/** The customer portal's `CustomerSubscriptionCancel`. */
export const customerSubscriptionCancel = z.strictObject({
  cancel_at_period_end: z.boolean().nullish(),
  cancellation_reason: cancellationReason.nullish(),
  cancellation_comment: z.string().nullish(),
});
/** Polar's `CustomerSubscriptionUpdateProduct`: a plan change, with the organization's proration choice. */
export const customerSubscriptionUpdateProduct = z.strictObject({ product_id: z.uuid() });
/** Polar's `CustomerSubscriptionUpdateSeats` (the organization's proration choice too). */
export const customerSubscriptionUpdateSeats = z.strictObject({ seats: graphqlInt().gte(1) });

/** Polar's `CustomerSubscriptionPause` and `CustomerSubscriptionResume` (the PATCH's, under the portal's names). */
export const customerSubscriptionPause = subscriptionPause;
export const customerSubscriptionResume = subscriptionResume;

/** Polar's `CustomerSubscriptionUpdate`: picked by its distinguishing key, like `SubscriptionUpdate`. */
export const customerSubscriptionUpdate = pickedUnion<Record<string, any>>(
  'CustomerSubscriptionUpdate',
  [
    { title: 'CustomerSubscriptionUpdateProduct', schema: customerSubscriptionUpdateProduct },
    { title: 'CustomerSubscriptionUpdateSeats', schema: customerSubscriptionUpdateSeats },
    { title: 'CustomerSubscriptionCancel', schema: customerSubscriptionCancel },
    { title: 'CustomerSubscriptionPause', schema: customerSubscriptionPause },
    { title: 'CustomerSubscriptionResume', schema: customerSubscriptionResume },
  ],
  body => {
    const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
    if (keys.includes('resume')) return customerSubscriptionResume;
    if (keys.includes('pause_at_period_end')) return customerSubscriptionPause;
    if (keys.includes('product_id')) return customerSubscriptionUpdateProduct;
    if (keys.includes('seats')) return customerSubscriptionUpdateSeats;
    return customerSubscriptionCancel;
  },
);

/** The answer of `POST /v1/subscriptions/{id}/update-preview` (amounts in minor units). */
export const subscriptionUpdatePreviewResponse = z.object({
  applies_at: z.iso.datetime({ offset: true }),
  currency: z.string(),
  items: z.array(z.object({ label: z.string(), amount: z.number().int(), proration: z.boolean() })),
  subtotal_amount: z.number().int(),
  discount_amount: z.number().int(),
  net_amount: z.number().int(),
  tax_amount: z.number().int(),
  total_amount: z.number().int(),
});
