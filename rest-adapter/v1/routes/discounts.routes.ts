import { z } from 'zod';
import {
  DISCOUNT_DEFAULT_SORTING,
  DISCOUNT_SORT_KEYS,
  DISCOUNTS_READ,
  DISCOUNTS_WRITE,
  discountWire,
} from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, sortingQuery, toInput, toWire } from './common.js';
import { discountCreateBody, discountResponse, discountUpdateBody } from './discounts.schemas.js';
import type { Route } from './route.js';

/** Wire → GraphQL input: absent keys dropped, `amounts` map → list, `metadata` kept as written. */
function input(body: Record<string, unknown>): Record<string, unknown> {
  const { amounts, ...rest } = body;
  const fields = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  const converted = toInput<Record<string, unknown>>(fields);
  if (amounts !== undefined)
    converted.amounts =
      amounts === null
        ? null
        : Object.entries(amounts as Record<string, number>).map(([currency, amount]) => ({ currency, amount }));
  return converted;
}

export const discountRoutes: Route[] = [
  {
    operationId: 'discounts:list',
    method: 'get',
    path: '/v1/discounts/',
    summary: 'List discounts',
    tag: 'discounts',
    access: DISCOUNTS_READ,
    query: z.object({
      organization_id: z.array(z.uuid()).optional(),
      query: z.string().optional(),
      ...pageQuery,
      sorting: sortingQuery(DISCOUNT_SORT_KEYS, DISCOUNT_DEFAULT_SORTING),
    }),
    operation: 'DiscountsList',
    variables: ({ query }) => ({
      organizationId: query.organization_id ?? null,
      query: query.query || null,
      page: query.page,
      limit: query.limit,
      sorting: query.sorting,
    }),
    result: data => ({ items: data.discounts.items.map(discountWire), pagination: toWire(data.discounts.pagination) }),
    status: 200,
    response: listOf(discountResponse),
  },
  {
    operationId: 'discounts:create',
    method: 'post',
    path: '/v1/discounts/',
    summary: 'Create a discount',
    tag: 'discounts',
    access: DISCOUNTS_WRITE,
    body: discountCreateBody,
    operation: 'DiscountsCreate',
    variables: ({ body }) => ({ input: input(body) }),
    result: data => discountWire(data.createDiscount),
    status: 201,
    response: discountResponse,
  },
  {
    operationId: 'discounts:get',
    method: 'get',
    path: '/v1/discounts/{id}',
    summary: 'Get a discount',
    tag: 'discounts',
    access: DISCOUNTS_READ,
    params: idParams,
    operation: 'DiscountsGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => discountWire(data.discount),
    status: 200,
    response: discountResponse,
    errors: [404],
  },
  {
    operationId: 'discounts:update',
    method: 'patch',
    path: '/v1/discounts/{id}',
    summary: 'Update a discount',
    tag: 'discounts',
    access: DISCOUNTS_WRITE,
    params: idParams,
    body: discountUpdateBody,
    operation: 'DiscountsUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: input(body) }),
    result: data => discountWire(data.updateDiscount),
    status: 200,
    response: discountResponse,
    errors: [404],
  },
  {
    operationId: 'discounts:delete',
    method: 'delete',
    path: '/v1/discounts/{id}',
    summary: 'Delete a discount',
    tag: 'discounts',
    access: DISCOUNTS_WRITE,
    params: idParams,
    operation: 'DiscountsDelete',
    variables: ({ params }) => ({ id: params.id }),
    result: () => undefined,
    status: 204,
    errors: [404],
  },
];
