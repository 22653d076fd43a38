import { z } from 'zod';
import {
  SUBSCRIPTION_DEFAULT_SORTING,
  SUBSCRIPTION_SORT_KEYS,
  SUBSCRIPTIONS_READ,
  SUBSCRIPTIONS_WRITE,
  subscriptionWire,
} from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, sortingQuery, toInput, toWire } from './common.js';

/** The one wire shape of a subscription (REST and outbox payloads), also used by the portal routes. */
export { subscriptionWire };
import type { Route } from './route.js';
import {
  subscriptionUpdateBody,
  subscriptionUpdatePreviewResponse,
  subscriptionUpdateVariables,
} from './subscription-updates.schemas.js';
import { subscriptionCreateBody, subscriptionListFilters, subscriptionResponse } from './subscriptions.schemas.js';

/** Polar's subscriptions API (`/v1/subscriptions/`): list, create, export and get. */
export const subscriptionRoutes: Route[] = [
  {
    operationId: 'subscriptions:list',
    method: 'get',
    path: '/v1/subscriptions/',
    summary: 'List subscriptions',
    tag: 'subscriptions',
    access: SUBSCRIPTIONS_READ,
    query: z.object({
      ...subscriptionListFilters,
      ...pageQuery,
      sorting: sortingQuery(SUBSCRIPTION_SORT_KEYS, SUBSCRIPTION_DEFAULT_SORTING),
    }),
    operation: 'SubscriptionsList',
    // Every other query key is a filter (snake → camel; `metadata`'s keys stay the merchant's).
    variables: ({ query: { page, limit, sorting, ...filter } }) => ({ filter: toInput(filter), page, limit, sorting }),
    result: data => ({
      items: data.subscriptions.items.map(subscriptionWire),
      pagination: toWire(data.subscriptions.pagination),
    }),
    status: 200,
    response: listOf(subscriptionResponse),
  },
  {
    operationId: 'subscriptions:create',
    method: 'post',
    path: '/v1/subscriptions/',
    summary: 'Create a subscription to a free product (no checkout, no order, no e-mail)',
    tag: 'subscriptions',
    access: SUBSCRIPTIONS_WRITE,
    body: subscriptionCreateBody,
    operation: 'SubscriptionsCreate',
    variables: ({ body }) => ({
      input: {
        productId: body.product_id,
        customerId: body.customer_id ?? null,
        externalCustomerId: body.external_customer_id ?? null,
        metadata: body.metadata ?? null,
      },
    }),
    result: data => subscriptionWire(data.createSubscription),
    status: 201,
    response: subscriptionResponse,
  },
  {
    operationId: 'subscriptions:export',
    method: 'get',
    path: '/v1/subscriptions/export',
    summary: 'Export subscriptions as CSV',
    tag: 'subscriptions',
    access: SUBSCRIPTIONS_READ,
    query: z.object({ organization_id: z.array(z.uuid()).optional() }),
    operation: 'SubscriptionsExport',
    variables: ({ query }) => ({ organizationId: query.organization_id ?? null }),
    result: data => data.subscriptionsExport as string,
    status: 200,
    contentType: 'text/csv',
    response: z.string(),
  },
  {
    operationId: 'subscriptions:get',
    method: 'get',
    path: '/v1/subscriptions/{id}',
    summary: 'Get a subscription',
    tag: 'subscriptions',
    access: SUBSCRIPTIONS_READ,
    params: idParams,
    operation: 'SubscriptionsGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => subscriptionWire(data.subscription),
    status: 200,
    response: subscriptionResponse,
    errors: [404],
  },
  // subscriptions:update (PATCH /v1/subscriptions/{id}) and subscriptions:revoke (DELETE) are added
  // below this line by the subscription-updates work; they map their results with `subscriptionWire`.
  {
    operationId: 'subscriptions:update',
    method: 'patch',
    path: '/v1/subscriptions/{id}',
    summary: 'Update a subscription (one alternative of SubscriptionUpdate)',
    tag: 'subscriptions',
    access: SUBSCRIPTIONS_WRITE,
    params: idParams,
    body: subscriptionUpdateBody,
    operation: 'SubscriptionsUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: subscriptionUpdateVariables(body) }),
    result: data => subscriptionWire(data.updateSubscription),
    status: 200,
    response: subscriptionResponse,
    errors: [402, 403, 404, 409],
  },
  {
    operationId: 'subscriptions:update_preview',
    method: 'post',
    path: '/v1/subscriptions/{id}/update-preview',
    summary: 'Preview a subscription update (what the PATCH with the same body would bill)',
    description:
      'Takes the body of `PATCH /v1/subscriptions/{id}` and answers the order it would create: for `invoice` the order made now (proration items, credit negative), for `prorate` and `next_period` the next renewal order. Runs every check of the PATCH (same errors) and changes nothing.',
    tag: 'subscriptions',
    access: SUBSCRIPTIONS_WRITE,
    params: idParams,
    body: subscriptionUpdateBody,
    operation: 'SubscriptionsUpdatePreview',
    variables: ({ params, body }) => ({ id: params.id, input: subscriptionUpdateVariables(body) }),
    result: data => toWire(data.previewSubscriptionUpdate),
    status: 200,
    response: subscriptionUpdatePreviewResponse,
    errors: [403, 404, 409],
  },
  {
    operationId: 'subscriptions:revoke',
    method: 'delete',
    path: '/v1/subscriptions/{id}',
    summary: 'Revoke a subscription (cancel it now)',
    tag: 'subscriptions',
    access: SUBSCRIPTIONS_WRITE,
    params: idParams,
    operation: 'SubscriptionsRevoke',
    variables: ({ params }) => ({ id: params.id }),
    result: data => subscriptionWire(data.revokeSubscription),
    status: 200,
    response: subscriptionResponse,
    errors: [403, 404, 409],
  },
];
