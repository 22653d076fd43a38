import { z } from 'zod';
import {
  CUSTOMER_DEFAULT_SORTING,
  CUSTOMER_SORT_KEYS,
  CUSTOMERS_READ,
  CUSTOMERS_WRITE,
} from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, sortingQuery, toInput, toWire } from './common.js';
import {
  customerCreateBody,
  customerResponse,
  customerUpdateBody,
  customerUpdateExternalBody,
} from './customers.schemas.js';
import type { Route } from './route.js';

const externalIdParams = z.object({ external_id: z.string() });

/** Body keys whose absence matters (absent = unchanged): dropped when undefined, kept when null. */
function dropUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

/** Polar's customers API (`/v1/customers/`), including the by-external-id variants. */
export const customerRoutes: Route[] = [
  {
    operationId: 'customers:list',
    method: 'get',
    path: '/v1/customers/',
    summary: 'List customers',
    tag: 'customers',
    access: CUSTOMERS_READ,
    query: z.object({
      organization_id: z.array(z.uuid()).optional(),
      email: z.string().optional(),
      query: z.string().optional(),
      metadata: z.record(z.string(), z.array(z.string())).optional(),
      ...pageQuery,
      sorting: sortingQuery(CUSTOMER_SORT_KEYS, CUSTOMER_DEFAULT_SORTING),
    }),
    operation: 'CustomersList',
    variables: ({ query }) => ({
      filter: {
        organizationId: query.organization_id ?? null,
        email: query.email ?? null,
        query: query.query ?? null,
        metadata: query.metadata ?? null,
      },
      page: query.page,
      limit: query.limit,
      sorting: query.sorting,
    }),
    result: data => toWire(data.customers),
    status: 200,
    response: listOf(customerResponse),
  },
  {
    operationId: 'customers:create',
    method: 'post',
    path: '/v1/customers/',
    summary: 'Create a customer',
    tag: 'customers',
    access: CUSTOMERS_WRITE,
    body: customerCreateBody,
    operation: 'CustomersCreate',
    variables: ({ body }) => {
      const { owner: _owner, ...fields } = body as z.output<typeof customerCreateBody>;
      return { input: toInput(dropUndefined(fields)) };
    },
    result: data => toWire(data.createCustomer),
    status: 201,
    response: customerResponse,
  },
  {
    operationId: 'customers:get',
    method: 'get',
    path: '/v1/customers/{id}',
    summary: 'Get a customer',
    tag: 'customers',
    access: CUSTOMERS_READ,
    params: idParams,
    operation: 'CustomersGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => toWire(data.customer),
    status: 200,
    response: customerResponse,
    errors: [404],
  },
  {
    operationId: 'customers:update',
    method: 'patch',
    path: '/v1/customers/{id}',
    summary: 'Update a customer',
    tag: 'customers',
    access: CUSTOMERS_WRITE,
    params: idParams,
    body: customerUpdateBody,
    operation: 'CustomersUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: toInput(dropUndefined(body)) }),
    result: data => toWire(data.updateCustomer),
    status: 200,
    response: customerResponse,
    errors: [404],
  },
  {
    operationId: 'customers:delete',
    method: 'delete',
    path: '/v1/customers/{id}',
    summary: 'Delete a customer (soft)',
    tag: 'customers',
    access: CUSTOMERS_WRITE,
    params: idParams,
    operation: 'CustomersDelete',
    variables: ({ params }) => ({ id: params.id }),
    result: () => undefined,
    status: 204,
    errors: [404],
  },
  {
    operationId: 'customers:get_external',
    method: 'get',
    path: '/v1/customers/external/{external_id}',
    summary: 'Get a customer by external id',
    tag: 'customers',
    access: CUSTOMERS_READ,
    params: externalIdParams,
    operation: 'CustomersGetExternal',
    variables: ({ params }) => ({ externalId: params.external_id }),
    result: data => toWire(data.customerByExternalId),
    status: 200,
    response: customerResponse,
    errors: [404],
  },
  {
    operationId: 'customers:update_external',
    method: 'patch',
    path: '/v1/customers/external/{external_id}',
    summary: 'Update a customer by external id',
    tag: 'customers',
    access: CUSTOMERS_WRITE,
    params: externalIdParams,
    body: customerUpdateExternalBody,
    operation: 'CustomersUpdateExternal',
    variables: ({ params, body }) => ({ externalId: params.external_id, input: toInput(dropUndefined(body)) }),
    result: data => toWire(data.updateCustomerByExternalId),
    status: 200,
    response: customerResponse,
    errors: [404],
  },
  {
    operationId: 'customers:delete_external',
    method: 'delete',
    path: '/v1/customers/external/{external_id}',
    summary: 'Delete a customer by external id (soft)',
    tag: 'customers',
    access: CUSTOMERS_WRITE,
    params: externalIdParams,
    operation: 'CustomersDeleteExternal',
    variables: ({ params }) => ({ externalId: params.external_id }),
    result: () => undefined,
    status: 204,
    errors: [404],
  },
];
