import { z } from 'zod';
import { CUSTOMER_PORTAL_READ, CUSTOMER_PORTAL_WRITE, customerOrderWire } from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, toInput, toWire } from './common.js';
import { addressInput } from './customers.schemas.js';
import { taxBreakdownItem } from './checkouts.schemas.js';
import type { Route } from './route.js';

/** Customer sessions (`polar_cst_`) only: the customer's own orders (docs/polar/endpoints.md#customer-portal-api). */

const dateTime = z.iso.datetime({ offset: true });
const customerOrderResponse = z.looseObject({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  status: z.string(),
  paid: z.boolean(),
  subtotal_amount: z.number().int(),
  discount_amount: z.number().int(),
  net_amount: z.number().int(),
  tax_amount: z.number().int(),
  tax_behavior: z.enum(['inclusive', 'exclusive']).nullable(),
  tax_breakdown: z.array(taxBreakdownItem),
  total_amount: z.number().int(),
  currency: z.string(),
  billing_reason: z.string(),
  customer_id: z.uuid(),
  product: z.record(z.string(), z.unknown()).nullable(),
  items: z.array(z.record(z.string(), z.unknown())),
});

export const customerPortalOrderRoutes: Route[] = [
  {
    operationId: 'customer_portal:orders:list',
    method: 'get',
    path: '/v1/customer-portal/orders/',
    summary: "List the customer's orders",
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    query: z.object({
      product_id: z.array(z.uuid()).optional(),
      product_billing_type: z.array(z.enum(['one_time', 'recurring'])).optional(),
      subscription_id: z.array(z.uuid()).optional(),
      ...pageQuery,
      sorting: z
        .array(
          z.enum([
            'created_at',
            '-created_at',
            'amount',
            '-amount',
            'net_amount',
            '-net_amount',
            'product',
            '-product',
            'subscription',
            '-subscription',
          ]),
        )
        .default(['-created_at']),
    }),
    operation: 'CustomerPortalOrdersList',
    variables: ({ query }) => ({
      productId: query.product_id ?? null,
      productBillingType: query.product_billing_type ?? null,
      subscriptionId: query.subscription_id ?? null,
      page: query.page,
      limit: query.limit,
      sorting: query.sorting,
    }),
    result: data => ({
      items: data.customerPortalOrders.items.map(customerOrderWire),
      pagination: toWire(data.customerPortalOrders.pagination),
    }),
    status: 200,
    response: listOf(customerOrderResponse),
  },
  {
    operationId: 'customer_portal:orders:get',
    method: 'get',
    path: '/v1/customer-portal/orders/{id}',
    summary: "Get one of the customer's orders",
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    params: idParams,
    operation: 'CustomerPortalOrdersGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => customerOrderWire(data.customerPortalOrder),
    status: 200,
    response: customerOrderResponse,
    errors: [404],
  },
  {
    operationId: 'customer_portal:orders:update',
    method: 'patch',
    path: '/v1/customer-portal/orders/{id}',
    summary: "Update the billing name and address of one of the customer's orders",
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_WRITE,
    params: idParams,
    body: z.object({ billing_name: z.string().nullish(), billing_address: addressInput.nullish() }),
    operation: 'CustomerPortalOrdersUpdate',
    variables: ({ params, body }) => ({
      id: params.id,
      input: toInput(Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined))),
    }),
    result: data => customerOrderWire(data.customerPortalUpdateOrder),
    status: 200,
    response: customerOrderResponse,
    errors: [404, 422],
  },
  {
    operationId: 'customer_portal:orders:get_payment_status',
    method: 'get',
    path: '/v1/customer-portal/orders/{id}/payment-status',
    summary: "Get the payment status of one of the customer's orders",
    description:
      "The status of the order's latest payment attempt (`pending`, `succeeded`, `failed`, with the processor's " +
      'decline message as `error`), or `no_payment` before any: what the portal polls after a confirm-payment.',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    params: idParams,
    operation: 'CustomerPortalOrdersPaymentStatus',
    variables: ({ params }) => ({ id: params.id }),
    result: data => toWire(data.customerPortalOrderPaymentStatus),
    status: 200,
    response: z.object({ status: z.string(), error: z.string().nullable() }),
    errors: [404],
  },
  {
    operationId: 'customer_portal:orders:confirm_retry_payment',
    method: 'post',
    path: '/v1/customer-portal/orders/{id}/confirm-payment',
    summary: 'Pay a pending renewal order by hand',
    description:
      'Charges a pending renewal order of a past-due subscription now: with a card entered now ' +
      '(`confirmation_token_id`), a saved one (`payment_method_id`), or else the default one. Every try is a ' +
      'payment of the order; a success pays it and makes the subscription active. At most 5 tries per order ' +
      '(then 429 `ManualRetryLimitExceeded`); another payment of the order under way is 409 ' +
      '`PaymentAlreadyInProgress`; an order that is not such a pending renewal is 422 `OrderNotEligibleForRetry`.',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_WRITE,
    params: idParams,
    body: z.strictObject({
      confirmation_token_id: z.string().min(1).nullable().optional(),
      payment_method_id: z.uuid().nullable().optional(),
      payment_processor: z.literal('stripe').default('stripe'),
    }),
    operation: 'CustomerPortalOrdersConfirmPayment',
    variables: ({ params, body }) => ({
      id: params.id,
      confirmationTokenId: body.confirmation_token_id ?? null,
      paymentMethodId: body.payment_method_id ?? null,
    }),
    result: data => toWire(data.customerPortalConfirmOrderPayment),
    status: 200,
    response: z.object({ status: z.string(), client_secret: z.string().nullable(), error: z.string().nullable() }),
    errors: [404, 409, 422],
  },
];
