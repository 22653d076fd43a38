import { z } from 'zod';
import {
  CUSTOMER_SEAT_CLAIM,
  CUSTOMER_SEATS_READ,
  CUSTOMER_SEATS_WRITE,
  customerSeatWire,
} from '../../../subgraphs/billing/contract.js';
import {
  customerSeatResponse,
  seatAssignBody,
  seatAssignInput,
  seatClaimBody,
  seatClaimInfoResponse,
  seatClaimResponse,
  seatsListResponse,
} from './customer-seats.schemas.js';
import { toWire } from './common.js';
import type { Route } from './route.js';
import type { AccessRule } from '../../../kit/graphql/authorize.js';

const seatParams = z.object({ seat_id: z.uuid() });

/**
 * The seats' list, assign, revoke and resend, as the Core API (`/v1/customer-seats`) and the buyer's portal
 * (`/v1/customer-portal/seats`) serve them: the same operations under each one's names and access rule.
 */
export function seatManagementRoutes(o: {
  prefix: string;
  path: string;
  tag: string;
  read: AccessRule;
  write: AccessRule;
}): Route[] {
  return [
    {
      operationId: `${o.prefix}:list_seats`,
      method: 'get',
      path: o.path,
      summary: 'List seats',
      tag: o.tag,
      access: o.read,
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
      operationId: `${o.prefix}:assign_seat`,
      method: 'post',
      path: o.path,
      summary: 'Assign seat',
      description:
        'Gives a seat to a customer (by e-mail, external id or id) or a member of the buyer, and e-mails the invitation.',
      tag: o.tag,
      access: o.write,
      body: seatAssignBody,
      operation: 'CustomerSeatsAssign',
      variables: ({ body }) => ({ input: seatAssignInput(body) }),
      result: data => customerSeatWire(data.assignCustomerSeat),
      status: 200,
      response: customerSeatResponse,
      errors: [400, 403, 404],
    },
    {
      operationId: `${o.prefix}:revoke_seat`,
      method: 'delete',
      path: `${o.path}/{seat_id}`,
      summary: 'Revoke seat',
      tag: o.tag,
      access: o.write,
      params: seatParams,
      operation: 'CustomerSeatsRevoke',
      variables: ({ params }) => ({ id: params.seat_id }),
      result: data => customerSeatWire(data.revokeCustomerSeat),
      status: 200,
      response: customerSeatResponse,
      errors: [403, 404],
    },
    {
      operationId: `${o.prefix}:resend_invitation`,
      method: 'post',
      path: `${o.path}/{seat_id}/resend`,
      summary: 'Resend invitation',
      description: 'A new invitation e-mail with a new token; the previous token stops working.',
      tag: o.tag,
      access: o.write,
      params: seatParams,
      operation: 'CustomerSeatsResend',
      variables: ({ params }) => ({ id: params.seat_id }),
      result: data => customerSeatWire(data.resendCustomerSeatInvitation),
      status: 200,
      response: customerSeatResponse,
      errors: [400, 403, 404],
    },
  ];
}

/**
 * Polar's customer seats API (`/v1/customer-seats/`, docs/customer-seats.md): the seats of a seat-based
 * subscription or order, their invitations and the public claim of an invitation by its token.
 */
export const customerSeatRoutes: Route[] = [
  ...seatManagementRoutes({
    prefix: 'customer-seats',
    path: '/v1/customer-seats',
    tag: 'customer-seats',
    read: CUSTOMER_SEATS_READ,
    write: CUSTOMER_SEATS_WRITE,
  }),
  {
    operationId: 'customer-seats:get_claim_info',
    method: 'get',
    path: '/v1/customer-seats/claim/{invitation_token}',
    summary: 'Get claim info',
    tag: 'customer-seats',
    access: CUSTOMER_SEAT_CLAIM,
    params: z.object({ invitation_token: z.string() }),
    operation: 'CustomerSeatsClaimInfo',
    variables: ({ params }) => ({ invitationToken: params.invitation_token }),
    result: data => toWire(data.customerSeatClaimInfo),
    status: 200,
    response: seatClaimInfoResponse,
    errors: [400, 403, 404],
  },
  {
    operationId: 'customer-seats:claim_seat',
    method: 'post',
    path: '/v1/customer-seats/claim',
    summary: 'Claim seat',
    tag: 'customer-seats',
    access: CUSTOMER_SEAT_CLAIM,
    body: seatClaimBody,
    operation: 'CustomerSeatsClaim',
    variables: ({ body }) => ({ invitationToken: body.invitation_token }),
    result: data => ({
      seat: customerSeatWire(data.claimCustomerSeat.seat),
      customer_session_token: data.claimCustomerSeat.customerSessionToken,
    }),
    status: 200,
    response: seatClaimResponse,
    errors: [400, 403],
  },
];
