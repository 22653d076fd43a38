import { z } from 'zod';
import {
  CUSTOMER_PORTAL_SEATS_READ,
  CUSTOMER_PORTAL_SEATS_WRITE,
  customerSeatWire,
  customerSubscriptionWire,
} from '../../../subgraphs/billing/contract.js';
import { listOf, pageQuery, toWire } from './common.js';
import { customerSubscriptionResponse } from './customer-portal-subscriptions.routes.js';
import { customerSeatResponse, seatAssignBody, seatAssignInput, seatsListResponse } from './customer-seats.schemas.js';
import type { Route } from './route.js';

const seatParams = z.object({ seat_id: z.uuid() });

/**
 * Polar's portal seats (`/v1/customer-portal/seats`, docs/customer-seats.md#the-portal): the buyer's
 * customer session manages the seats of its own subscriptions and orders through the same operations as
 * the Core API (the service scopes them to the buyer), and any customer lists the subscriptions it holds
 * a claimed seat of.
 */
export const customerPortalSeatRoutes: Route[] = [
  {
    operationId: 'customer_portal:seats:list_seats',
    method: 'get',
    path: '/v1/customer-portal/seats',
    summary: 'List seats',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_SEATS_READ,
    query: z.object({ subscription_id: z.uuid().optional(), order_id: z.uuid().optional() }),
    operation: 'CustomerSeatsList',
    variables: ({ query }) => ({ subscriptionId: query.subscription_id ?? null, orderId: query.order_id ?? null }),
    result: data => ({
      seats: data.customerSeats.seats.map(customerSeatWire),
      available_seats: data.customerSeats.availableSeats,
      total_seats: data.customerSeats.totalSeats,
    }),
    status: 200,
    response: seatsListResponse,
    errors: [400, 403, 404],
  },
  {
    operationId: 'customer_portal:seats:assign_seat',
    method: 'post',
    path: '/v1/customer-portal/seats',
    summary: 'Assign seat',
    description: 'Gives a seat of one of your subscriptions or orders to someone and e-mails the invitation.',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_SEATS_WRITE,
    body: seatAssignBody,
    operation: 'CustomerSeatsAssign',
    variables: ({ body }) => ({ input: seatAssignInput(body) }),
    result: data => customerSeatWire(data.assignCustomerSeat),
    status: 200,
    response: customerSeatResponse,
    errors: [400, 403, 404],
  },
  {
    operationId: 'customer_portal:seats:revoke_seat',
    method: 'delete',
    path: '/v1/customer-portal/seats/{seat_id}',
    summary: 'Revoke seat',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_SEATS_WRITE,
    params: seatParams,
    operation: 'CustomerSeatsRevoke',
    variables: ({ params }) => ({ id: params.seat_id }),
    result: data => customerSeatWire(data.revokeCustomerSeat),
    status: 200,
    response: customerSeatResponse,
    errors: [403, 404],
  },
  {
    operationId: 'customer_portal:seats:resend_invitation',
    method: 'post',
    path: '/v1/customer-portal/seats/{seat_id}/resend',
    summary: 'Resend invitation',
    description: 'A new invitation e-mail with a new token; the previous token stops working.',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_SEATS_WRITE,
    params: seatParams,
    operation: 'CustomerSeatsResend',
    variables: ({ params }) => ({ id: params.seat_id }),
    result: data => customerSeatWire(data.resendCustomerSeatInvitation),
    status: 200,
    response: customerSeatResponse,
    errors: [400, 403, 404],
  },
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
