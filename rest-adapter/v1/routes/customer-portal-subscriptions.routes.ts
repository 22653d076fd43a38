import { z } from 'zod';
import { idParams, listOf, pageQuery, toWire } from './common.js';
import type { Route } from './route.js';
import { customerSubscriptionUpdate, subscriptionUpdatePreviewResponse } from './subscription-updates.schemas.js';
import {
  CUSTOMER_PORTAL_READ,
  CUSTOMER_PORTAL_WRITE,
  customerSubscriptionWire,
} from '../../../subgraphs/billing/contract.js';
import { queryBoolean } from './subscriptions.schemas.js';

/** Customer sessions (`polar_cst_`) only: the customer's own subscriptions (docs/polar/endpoints.md#customer-portal-api). */

type Wire = Record<string, any>;

/** The portal PATCH's body (one of Polar's CustomerSubscriptionUpdate alternatives) as the GraphQL input. */
function customerUpdateInput(body: Wire) {
  return {
    cancelAtPeriodEnd: body.cancel_at_period_end ?? null,
    cancellationReason: body.cancellation_reason ?? null,
    cancellationComment: body.cancellation_comment ?? null,
    productId: body.product_id ?? null,
    seats: body.seats ?? null,
    pauseAtPeriodEnd: body.pause_at_period_end ?? null,
    resumesAt: body.resumes_at ?? null,
    resume: body.resume ?? null,
  };
}

const dateTime = z.iso.datetime({ offset: true });
export const customerSubscriptionResponse = z.object({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  amount: z.number().int(),
  currency: z.string(),
  recurring_interval: z.string(),
  recurring_interval_count: z.number().int(),
  status: z.string(),
  current_period_start: dateTime,
  current_period_end: dateTime,
  trial_start: dateTime.nullable(),
  trial_end: dateTime.nullable(),
  cancel_at_period_end: z.boolean(),
  canceled_at: dateTime.nullable(),
  started_at: dateTime.nullable(),
  ends_at: dateTime.nullable(),
  ended_at: dateTime.nullable(),
  customer_id: z.uuid(),
  product_id: z.uuid(),
  discount_id: z.uuid().nullable(),
  checkout_id: z.uuid().nullable(),
  seats: z.number().int().nullable(),
  customer_cancellation_reason: z.string().nullable(),
  customer_cancellation_comment: z.string().nullable(),
  product: z.record(z.string(), z.unknown()),
  prices: z.array(z.record(z.string(), z.unknown())),
  meters: z.array(z.unknown()),
  pending_update: z.record(z.string(), z.unknown()).nullable(),
  pause_at_period_end: z.boolean(),
  paused_at: dateTime.nullable(),
  resumes_at: dateTime.nullable(),
});

export const customerPortalSubscriptionRoutes: Route[] = [
  {
    operationId: 'customer_portal:subscriptions:list',
    method: 'get',
    path: '/v1/customer-portal/subscriptions/',
    summary: "List the customer's subscriptions",
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    query: z.object({
      product_id: z.array(z.uuid()).optional(),
      active: queryBoolean.optional(),
      ...pageQuery,
      sorting: z.array(z.enum(['started_at', '-started_at'])).default(['-started_at']),
    }),
    operation: 'CustomerPortalSubscriptionsList',
    variables: ({ query }) => ({
      productId: query.product_id ?? null,
      active: query.active ?? null,
      page: query.page,
      limit: query.limit,
      sorting: query.sorting,
    }),
    result: data => ({
      items: data.customerPortalSubscriptions.items.map(customerSubscriptionWire),
      pagination: toWire(data.customerPortalSubscriptions.pagination),
    }),
    status: 200,
    response: listOf(customerSubscriptionResponse),
  },
  {
    operationId: 'customer_portal:subscriptions:get',
    method: 'get',
    path: '/v1/customer-portal/subscriptions/{id}',
    summary: "Get one of the customer's subscriptions",
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    params: idParams,
    operation: 'CustomerPortalSubscriptionsGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => customerSubscriptionWire(data.customerPortalSubscription),
    status: 200,
    response: customerSubscriptionResponse,
    errors: [404],
  },
  {
    operationId: 'customer_portal:subscriptions:update',
    method: 'patch',
    path: '/v1/customer-portal/subscriptions/{id}',
    summary: 'Change the plan or the seats, cancel at period end (true) or uncancel (false), pause or resume',
    description:
      "A plan or seat change follows the organization's proration choice (`subscription_settings.proration_behavior`, or its `_upgrade` / `_downgrade` variant by the change's direction): charged now to the saved card (402 `PaymentFailed` when it is declined), prorated on the next renewal, or applied at the next period. Pausing at period end (`pause_at_period_end`, optional `resumes_at`) and resuming now (`resume: true`) need the organization's `customer_portal_settings.subscription.pause` (else 403 `PauseResumeNotAllowed`); resuming a paid subscription needs a saved payment method (else 402 `PaymentFailed`, `missing_payment_method`).",
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_WRITE,
    params: idParams,
    body: customerSubscriptionUpdate,
    operation: 'CustomerPortalSubscriptionsUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: customerUpdateInput(body) }),
    result: data => customerSubscriptionWire(data.customerPortalUpdateSubscription),
    status: 200,
    response: customerSubscriptionResponse,
    errors: [402, 403, 404, 409],
  },
  {
    operationId: 'customer_portal:subscriptions:update_preview',
    method: 'post',
    path: '/v1/customer-portal/subscriptions/{id}/update-preview',
    summary: 'Preview a change of the subscription (what the PATCH with the same body would bill)',
    description:
      "Takes the body of `PATCH /v1/customer-portal/subscriptions/{id}` and answers what `POST /v1/subscriptions/{id}/update-preview` answers for it: the order the change creates now, or the next renewal order, with the organization's proration choice for the change's direction. Refused exactly as the PATCH refuses it (the organization's `customer_portal_settings` included); changes nothing.",
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_WRITE,
    params: idParams,
    body: customerSubscriptionUpdate,
    operation: 'CustomerPortalSubscriptionsUpdatePreview',
    variables: ({ params, body }) => ({ id: params.id, input: customerUpdateInput(body) }),
    result: data => toWire(data.customerPortalPreviewSubscriptionUpdate),
    status: 200,
    response: subscriptionUpdatePreviewResponse,
    errors: [402, 403, 404, 409],
  },
  {
    operationId: 'customer_portal:subscriptions:cancel',
    method: 'delete',
    path: '/v1/customer-portal/subscriptions/{id}',
    summary: 'Cancel at the end of the current period',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_WRITE,
    params: idParams,
    operation: 'CustomerPortalSubscriptionsCancel',
    variables: ({ params }) => ({ id: params.id }),
    result: data => customerSubscriptionWire(data.customerPortalCancelSubscription),
    status: 200,
    response: customerSubscriptionResponse,
    errors: [403, 404],
  },
];
