import { z } from 'zod';
import {
  CUSTOMER_PORTAL_SEATS_READ,
  CUSTOMER_PORTAL_SEATS_WRITE,
  customerSubscriptionWire,
} from '../../../subgraphs/billing/contract.js';
import { listOf, pageQuery, toWire } from './common.js';
import { customerSubscriptionResponse } from './customer-portal-subscriptions.routes.js';
import { seatManagementRoutes } from './customer-seats.routes.js';
import type { Route } from './route.js';

/**
 * Polar's portal seats (`/v1/customer-portal/seats`, docs/customer-seats.md#the-portal): the buyer's
 * customer session manages the seats of its own subscriptions and orders through the same operations as
 * the Core API (the service scopes them to the buyer), and any customer lists the subscriptions it holds
 * a claimed seat of.
 */
export const customerPortalSeatRoutes: Route[] = [
  ...seatManagementRoutes({
    prefix: 'customer_portal:seats',
    path: '/v1/customer-portal/seats',
    tag: 'customer_portal',
    read: CUSTOMER_PORTAL_SEATS_READ,
    write: CUSTOMER_PORTAL_SEATS_WRITE,
  }),
  {
    operationId: 'customer_portal:seats:list_claimed_subscriptions',
    method: 'get',
    path: '/v1/customer-portal/seats/subscriptions',
    summary: 'List claimed subscriptions',
    description: 'The subscriptions in which you hold a claimed seat.',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_SEATS_READ,
    query: z.object({ ...pageQuery }),
    operation: 'CustomerPortalSeatsClaimedSubscriptions',
    variables: ({ query }) => ({ page: query.page, limit: query.limit }),
    result: data => ({
      items: data.customerPortalClaimedSubscriptions.items.map(customerSubscriptionWire),
      pagination: toWire(data.customerPortalClaimedSubscriptions.pagination),
    }),
    status: 200,
    response: listOf(customerSubscriptionResponse),
  },
];
