import { z } from 'zod';
import { CUSTOMER_PORTAL_MEMBERS, CUSTOMER_PORTAL_USER } from '../../../subgraphs/billing/contract.js';
import { listOf, pageQuery, toWire } from './common.js';
import {
  customerPortalMemberCreateBody,
  customerPortalMemberResponse,
  customerPortalMemberUpdateBody,
  customerPortalMemberWire,
  portalAuthenticatedUserResponse,
} from './members.schemas.js';
import type { Route } from './route.js';

const idParams = z.object({ id: z.uuid() });

/**
 * Polar's portal team (`/v1/customer-portal/members`, docs/members.md#portal): a team customer's session
 * lists, adds, changes and removes its members; and `customer-session/user`, who the session is.
 */
export const customerPortalMemberRoutes: Route[] = [
  {
    operationId: 'customer_portal:members:list_members',
    method: 'get',
    path: '/v1/customer-portal/members',
    summary: 'List members',
    description: "The team's members (team customers only: 403 otherwise).",
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_MEMBERS,
    query: z.object({ ...pageQuery }),
    operation: 'CustomerPortalMembersList',
    variables: ({ query }) => ({ page: query.page, limit: query.limit }),
    result: data => ({
      items: toWire<Record<string, unknown>[]>(data.customerPortalMembers.items).map(customerPortalMemberWire),
      pagination: toWire(data.customerPortalMembers.pagination),
    }),
    status: 200,
    response: listOf(customerPortalMemberResponse),
    errors: [403],
  },
  {
    operationId: 'customer_portal:members:add_member',
    method: 'post',
    path: '/v1/customer-portal/members',
    summary: 'Add member',
    description: 'Never as owner (422); an e-mail the team already has answers that member.',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_MEMBERS,
    body: customerPortalMemberCreateBody,
    operation: 'CustomerPortalMembersAdd',
    variables: ({ body }) => ({ input: { email: body.email, name: body.name ?? null, role: body.role } }),
    result: data => customerPortalMemberWire(toWire(data.addCustomerPortalMember)),
    status: 201,
    response: customerPortalMemberResponse,
    errors: [403],
  },
  {
    operationId: 'customer_portal:members:update_member',
    method: 'patch',
    path: '/v1/customer-portal/members/{id}',
    summary: 'Update member',
    description: 'Name or role; making a member the owner hands ownership on. Your own role cannot change (422).',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_MEMBERS,
    params: idParams,
    body: customerPortalMemberUpdateBody,
    operation: 'CustomerPortalMembersUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: { name: body.name ?? null, role: body.role ?? null } }),
    result: data => customerPortalMemberWire(toWire(data.updateCustomerPortalMember)),
    status: 200,
    response: customerPortalMemberResponse,
    errors: [403, 404],
  },
  {
    operationId: 'customer_portal:members:remove_member',
    method: 'delete',
    path: '/v1/customer-portal/members/{id}',
    summary: 'Remove member',
    description: 'Not yourself, not the only owner (422).',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_MEMBERS,
    params: idParams,
    operation: 'CustomerPortalMembersRemove',
    variables: ({ params }) => ({ id: params.id }),
    result: () => undefined,
    status: 204,
    errors: [403, 404],
  },
  {
    operationId: 'customer_portal:customer-session:get_authenticated_user',
    method: 'get',
    path: '/v1/customer-portal/customer-session/user',
    summary: 'Get the authenticated portal user',
    description: 'The customer the session is of (`type` customer; sessions here are customer sessions).',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_USER,
    operation: 'CustomerPortalAuthenticatedUser',
    variables: () => ({}),
    result: data => toWire(data.customerPortalAuthenticatedUser),
    status: 200,
    response: portalAuthenticatedUserResponse,
  },
];
