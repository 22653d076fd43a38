import { z } from 'zod';
import { CUSTOMER_PORTAL_READ, CUSTOMER_SESSION_CODE } from '../../../subgraphs/billing/contract.js';
import { toWire } from './common.js';
import type { Route } from './route.js';

/**
 * Polar's one-time-code sign-in of the customer portal (customer_portal/endpoints/customer_session.py):
 * no credential. `request` always answers 202, whether or not the customer exists; the code (6
 * characters, 30 minutes, single use) goes out through the e-mail outbox. Both are in the `sign_in`
 * rate-limit zone (6/min and 12/h per address in production).
 */
export const customerPortalCustomerSessionRoutes: Route[] = [
  {
    operationId: 'customer_portal:customer-session:request',
    method: 'post',
    path: '/v1/customer-portal/customer-session/request',
    summary: 'Request a sign-in code by e-mail',
    description:
      'Sends a 6-character code to the e-mail address when it belongs to a customer of the organization. The answer is 202 either way: it never tells whether the customer exists.',
    tag: 'customer_portal',
    access: CUSTOMER_SESSION_CODE,
    body: z.object({
      email: z.email().max(320),
      organization_id: z.uuid(),
      customer_id: z.uuid().nullish(),
    }),
    operation: 'CustomerPortalCustomerSessionRequest',
    variables: ({ body }) => ({ input: { email: body.email, organizationId: body.organization_id } }),
    result: () => undefined,
    status: 202,
  },
  {
    operationId: 'customer_portal:customer-session:authenticate',
    method: 'post',
    path: '/v1/customer-portal/customer-session/authenticate',
    summary: 'Trade a sign-in code for a customer session token',
    description:
      'A code is valid for 30 minutes and once. Beyond Polar, `code` may also be the one-time `polar_cel_` token of a customer e-mail’s portal link (7 days, once). An unknown, used or expired code is 401 `CustomerSessionCodeInvalidOrExpired`.',
    tag: 'customer_portal',
    access: CUSTOMER_SESSION_CODE,
    body: z.object({ code: z.string().max(64) }),
    operation: 'CustomerPortalCustomerSessionAuthenticate',
    variables: ({ body }) => ({ code: body.code }),
    result: data => ({ token: data.authenticateCustomerSessionCode.token }),
    status: 200,
    response: z.object({ token: z.string() }),
  },
  {
    operationId: 'customer_portal:customer-session:introspect',
    method: 'get',
    path: '/v1/customer-portal/customer-session/introspect',
    summary: 'Introspect the customer session',
    description: 'The calling customer session: when it expires and where the portal leads back to.',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    operation: 'CustomerPortalCustomerSessionIntrospect',
    variables: () => ({}),
    result: data => toWire(data.customerPortalSession),
    status: 200,
    response: z.object({ expires_at: z.iso.datetime({ offset: true }), return_url: z.string().nullable() }),
  },
];
