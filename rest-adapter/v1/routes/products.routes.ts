import { z } from 'zod';
import {
  PRODUCT_DEFAULT_SORTING,
  PRODUCT_SORT_KEYS,
  PRODUCTS_READ,
  PRODUCTS_WRITE,
  productWire,
} from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, sortingQuery, toInput, toWire } from './common.js';
import { productCreateBody, productResponse, productUpdateBody } from './products.schemas.js';
import type { Route } from './route.js';

const uuids = z.array(z.uuid()).optional();
const bool = z
  .enum(['true', 'false'])
  .transform(v => v === 'true')
  .optional();

/**
 * Body fields Polar accepts that have nothing behind them: media files, and the meter cycle (only null passes
 * validation: Polar's flag for it is off).
 */
function withoutUnsupported(body: Record<string, unknown>): Record<string, unknown> {
  const { medias: _medias, meter_interval: _meterInterval, meter_interval_count: _meterIntervalCount, ...rest } = body;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
}

/** Wire → GraphQL input; `metadata` stays as the merchant wrote it. */
const input = (body: Record<string, unknown>) => toInput(withoutUnsupported(body));

export const productRoutes: Route[] = [
  {
    operationId: 'products:list',
    method: 'get',
    path: '/v1/products/',
    summary: 'List products',
    tag: 'products',
    access: PRODUCTS_READ,
    query: z.object({
      id: uuids,
      organization_id: uuids,
      query: z.string().optional(),
      is_archived: bool,
      is_recurring: bool,
      visibility: z.array(z.enum(['draft', 'private', 'public'])).optional(),
      ...pageQuery,
      sorting: sortingQuery(PRODUCT_SORT_KEYS, PRODUCT_DEFAULT_SORTING),
    }),
    operation: 'ProductsList',
    variables: ({ query }) => ({
      id: query.id ?? null,
      organizationId: query.organization_id ?? null,
      query: query.query || null,
      isArchived: query.is_archived ?? null,
      isRecurring: query.is_recurring ?? null,
      visibility: query.visibility ?? null,
      page: query.page,
      limit: query.limit,
      sorting: query.sorting,
    }),
    result: data => ({ items: data.products.items.map(productWire), pagination: toWire(data.products.pagination) }),
    status: 200,
    response: listOf(productResponse),
  },
  {
    operationId: 'products:create',
    method: 'post',
    path: '/v1/products/',
    summary: 'Create a product',
    tag: 'products',
    access: PRODUCTS_WRITE,
    body: productCreateBody,
    operation: 'ProductsCreate',
    variables: ({ body }) => ({ input: input(body) }),
    result: data => productWire(data.createProduct),
    status: 201,
    response: productResponse,
  },
  {
    operationId: 'products:get',
    method: 'get',
    path: '/v1/products/{id}',
    summary: 'Get a product',
    tag: 'products',
    access: PRODUCTS_READ,
    params: idParams,
    operation: 'ProductsGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => productWire(data.product),
    status: 200,
    response: productResponse,
    errors: [404],
  },
  {
    operationId: 'products:update',
    method: 'patch',
    path: '/v1/products/{id}',
    summary: 'Update a product',
    tag: 'products',
    access: PRODUCTS_WRITE,
    params: idParams,
    body: productUpdateBody,
    operation: 'ProductsUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: input(body) }),
    result: data => productWire(data.updateProduct),
    status: 200,
    response: productResponse,
    errors: [403, 404],
  },
  {
    operationId: 'products:delete',
    method: 'delete',
    path: '/v1/products/{id}',
    summary: 'Delete a product',
    description:
      'Only products without orders, subscriptions, trials or discounts can be deleted (`is_deletable`); ' +
      'products in use can only be archived (409 ProductNotDeletable). Soft delete: the product leaves lists, ' +
      'gets and new checkouts; checkouts that named it still show it.',
    tag: 'products',
    access: PRODUCTS_WRITE,
    params: idParams,
    operation: 'ProductsDelete',
    variables: ({ params }) => ({ id: params.id }),
    result: () => undefined,
    status: 204,
    errors: [403, 404, 409],
  },
];
