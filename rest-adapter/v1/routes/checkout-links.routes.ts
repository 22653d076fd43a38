import { z } from 'zod';
import {
  CHECKOUT_LINK_DEFAULT_SORTING,
  CHECKOUT_LINK_SORT_KEYS,
  CHECKOUT_LINKS_READ,
  CHECKOUT_LINKS_WRITE,
  checkoutLinkWire,
} from '../../../subgraphs/billing/contract.js';
import {
  checkoutLinkCreateBody,
  checkoutLinkInput,
  checkoutLinkResponse,
  checkoutLinkUpdateBody,
} from './checkout-links.schemas.js';
import { idParams, listOf, pageQuery, sortingQuery, toWire } from './common.js';
import type { Route } from './route.js';

/**
 * Polar's checkout links API (`/v1/checkout-links/`). Following a link
 * (`GET /v1/checkout-links/{client_secret}/redirect`) is a browser redirect served with the hosted
 * checkout page (rest-adapter/web/checkout/checkout.routes.ts); Polar leaves it out of its schema too.
 */
export const checkoutLinkRoutes: Route[] = [
  {
    operationId: 'checkout-links:list',
    method: 'get',
    path: '/v1/checkout-links/',
    summary: 'List checkout links',
    tag: 'checkout-links',
    access: CHECKOUT_LINKS_READ,
    query: z.object({
      organization_id: z.array(z.uuid()).optional(),
      product_id: z.array(z.uuid()).optional(),
      ...pageQuery,
      sorting: sortingQuery(CHECKOUT_LINK_SORT_KEYS, CHECKOUT_LINK_DEFAULT_SORTING),
    }),
    operation: 'CheckoutLinksList',
    variables: ({ query }) => ({
      organizationId: query.organization_id ?? null,
      productId: query.product_id ?? null,
      page: query.page,
      limit: query.limit,
      sorting: query.sorting,
    }),
    result: data => ({
      items: data.checkoutLinks.items.map(checkoutLinkWire),
      pagination: toWire(data.checkoutLinks.pagination),
    }),
    status: 200,
    response: listOf(checkoutLinkResponse),
  },
  {
    operationId: 'checkout-links:create',
    method: 'post',
    path: '/v1/checkout-links/',
    summary: 'Create a checkout link',
    description: 'A shareable link: each time it is followed it opens a fresh checkout of its products.',
    tag: 'checkout-links',
    access: CHECKOUT_LINKS_WRITE,
    body: checkoutLinkCreateBody,
    operation: 'CheckoutLinksCreate',
    variables: ({ body }) => ({ input: checkoutLinkInput(body) }),
    result: data => checkoutLinkWire(data.createCheckoutLink),
    status: 201,
    response: checkoutLinkResponse,
  },
  {
    operationId: 'checkout-links:get',
    method: 'get',
    path: '/v1/checkout-links/{id}',
    summary: 'Get a checkout link',
    tag: 'checkout-links',
    access: CHECKOUT_LINKS_READ,
    params: idParams,
    operation: 'CheckoutLinksGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => checkoutLinkWire(data.checkoutLink),
    status: 200,
    response: checkoutLinkResponse,
    errors: [404],
  },
  {
    operationId: 'checkout-links:update',
    method: 'patch',
    path: '/v1/checkout-links/{id}',
    summary: 'Update a checkout link',
    tag: 'checkout-links',
    access: CHECKOUT_LINKS_WRITE,
    params: idParams,
    body: checkoutLinkUpdateBody,
    operation: 'CheckoutLinksUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: checkoutLinkInput(body) }),
    result: data => checkoutLinkWire(data.updateCheckoutLink),
    status: 200,
    response: checkoutLinkResponse,
    errors: [404],
  },
  {
    operationId: 'checkout-links:delete',
    method: 'delete',
    path: '/v1/checkout-links/{id}',
    summary: 'Delete a checkout link',
    tag: 'checkout-links',
    access: CHECKOUT_LINKS_WRITE,
    params: idParams,
    operation: 'CheckoutLinksDelete',
    variables: ({ params }) => ({ id: params.id }),
    result: () => undefined,
    status: 204,
    errors: [404],
  },
];
