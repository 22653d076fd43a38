import { z } from 'zod';
import { CUSTOMERS_READ, customerPaymentMethodWire } from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, toWire } from './common.js';
import { paymentMethodResponse } from './customer-portal-customers.routes.js';
import type { Route } from './route.js';

const DESCRIPTION =
  "The customer's saved payment methods, newest first, each with `is_default` (what renewals charge). " +
  'Read only: the customer adds and removes them in the portal. 404 for an unknown or deleted customer.';

/** A customer's saved payment methods, merchant side (docs/selling.md, "saved payment methods"). */
export const customerPaymentMethodRoutes: Route[] = [
  {
    operationId: 'customers:list_payment_methods_external',
    method: 'get',
    path: '/v1/customers/external/{external_id}/payment-methods',
    summary: 'List the payment methods of a customer by external id',
    description: DESCRIPTION,
    tag: 'customers',
    access: CUSTOMERS_READ,
    params: z.object({ external_id: z.string() }),
    query: z.object({ ...pageQuery }),
    operation: 'CustomerPaymentMethodsListExternal',
    variables: ({ params, query }) => ({ externalId: params.external_id, page: query.page, limit: query.limit }),
    result: data => ({
      items: data.customerPaymentMethodsByExternalId.items.map(customerPaymentMethodWire),
      pagination: toWire(data.customerPaymentMethodsByExternalId.pagination),
    }),
    status: 200,
    response: listOf(paymentMethodResponse),
    errors: [404],
  },
  {
    operationId: 'customers:list_payment_methods',
    method: 'get',
    path: '/v1/customers/{id}/payment-methods',
    summary: 'List the payment methods of a customer',
    description: DESCRIPTION,
    tag: 'customers',
    access: CUSTOMERS_READ,
    params: idParams,
    query: z.object({ ...pageQuery }),
    operation: 'CustomerPaymentMethodsList',
    variables: ({ params, query }) => ({ id: params.id, page: query.page, limit: query.limit }),
    result: data => ({
      items: data.customerPaymentMethods.items.map(customerPaymentMethodWire),
      pagination: toWire(data.customerPaymentMethods.pagination),
    }),
    status: 200,
    response: listOf(paymentMethodResponse),
    errors: [404],
  },
];
