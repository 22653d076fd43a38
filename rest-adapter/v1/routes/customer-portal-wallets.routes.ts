import { z } from 'zod';
import { CUSTOMER_PORTAL_READ } from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, toWire } from './common.js';
import type { Route } from './route.js';

/** Customer sessions (`polar_cst_`) only: the customer's own wallets (docs/wallets.md). */

const walletResponse = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  customer_id: z.uuid(),
  balance: z.number().int(),
  currency: z.string(),
});

export const customerPortalWalletRoutes: Route[] = [
  {
    operationId: 'customer_portal:wallets:list',
    method: 'get',
    path: '/v1/customer-portal/wallets/',
    summary: 'List wallets',
    description: 'The wallets of the authenticated customer: its balance with the seller, one per currency.',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    query: z.object({
      ...pageQuery,
      sorting: z.array(z.enum(['created_at', '-created_at', 'balance', '-balance'])).default(['-created_at']),
    }),
    operation: 'CustomerPortalWalletsList',
    variables: ({ query }) => ({ page: query.page, limit: query.limit, sorting: query.sorting }),
    result: data => ({
      items: data.customerPortalWallets.items.map(w => toWire(w)),
      pagination: toWire(data.customerPortalWallets.pagination),
    }),
    status: 200,
    response: listOf(walletResponse),
  },
  {
    operationId: 'customer_portal:wallets:get',
    method: 'get',
    path: '/v1/customer-portal/wallets/{id}',
    summary: 'Get a wallet',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    params: idParams,
    operation: 'CustomerPortalWalletsGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => toWire(data.customerPortalWallet),
    status: 200,
    response: walletResponse,
    errors: [404],
  },
];
