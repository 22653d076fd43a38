import { z } from 'zod';
import { CUSTOMER_PORTAL_READ, priceWire } from '../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, toWire } from './common.js';
import { customerOrganizationWire } from './customer-portal-subscriptions.routes.js';
import type { Route } from './route.js';

/** Customer sessions (`polar_cst_`) only: the customer's own orders (polar-api.md §4, Customer Portal). */

type Wire = Record<string, any>;

/** Polar's `CustomerOrder`: snake_case, the product's prices with their kind's keys and the seller's profile. */
export function customerOrderWire(data: unknown): Wire {
  const wire = toWire<Wire>(data);
  if (wire.product) {
    wire.product = { ...wire.product, prices: (wire.product.prices ?? []).map(priceWire) };
    if (wire.product.organization) wire.product.organization = customerOrganizationWire(wire.product.organization);
  }
  if (wire.subscription) wire.subscription.user_id = wire.customer_id;
  wire.user_id = wire.customer_id;
  return wire;
}

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
];
