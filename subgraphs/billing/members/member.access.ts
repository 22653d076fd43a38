import { coreApiRule, customerPortalRule } from '../../../kit/graphql/authorize.js';

/** A customer's members through the Core API (`/v1/customers/{id}/members`): Polar's `members:*` scopes. */
export const MEMBERS_READ = coreApiRule('members:read', 'members:write');
export const MEMBERS_WRITE = coreApiRule('members:write');

/**
 * The portal's team (`/v1/customer-portal/members`): Polar asks `customer_portal:write` of every one of
 * them, the list included (only owners and billing managers manage the team).
 */
export const CUSTOMER_PORTAL_MEMBERS = customerPortalRule('customer_portal:write');

/** `GET /v1/customer-portal/customer-session/user`: who the portal session is. */
export const CUSTOMER_PORTAL_USER = customerPortalRule('customer_portal:read', 'customer_portal:write');
