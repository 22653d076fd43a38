import { type AccessRule, coreApiRule, customerPortalRule } from '../../../kit/graphql/authorize.js';
import type { Principal } from '../../../kit/principal.js';

/** Who may call the seat operations of the Core API (`rest-adapter/v1/routes/customer-seats.routes.ts`). */
export const CUSTOMER_SEATS_READ = coreApiRule('customer_seats:read', 'customer_seats:write');
export const CUSTOMER_SEATS_WRITE = coreApiRule('customer_seats:write');

/** The same seats from the buyer's portal (`/v1/customer-portal/seats`): the customer session of the buyer. */
export const CUSTOMER_PORTAL_SEATS_READ = customerPortalRule('customer_portal:read', 'customer_portal:write');
export const CUSTOMER_PORTAL_SEATS_WRITE = customerPortalRule('customer_portal:write');

/** The rule a seat operation applies to this caller: the portal's for a customer session, else the Core API's. */
export function seatRule(principal: Principal, access: 'read' | 'write'): AccessRule {
  if (principal.subject === 'customer')
    return access === 'read' ? CUSTOMER_PORTAL_SEATS_READ : CUSTOMER_PORTAL_SEATS_WRITE;
  return access === 'read' ? CUSTOMER_SEATS_READ : CUSTOMER_SEATS_WRITE;
}

/**
 * An invitation's claim info and its claim: whoever holds the token (the e-mailed link), signed in or
 * not, as Polar's two endpoints take no credentials.
 */
export const CUSTOMER_SEAT_CLAIM: AccessRule = { subjects: ['anonymous', 'user', 'organization'], scopes: [] };
