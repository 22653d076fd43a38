import { type AccessRule, coreApiRule, customerPortalRule } from '../../../kit/graphql/authorize.js';

/**
 * Who may call the customer operations, through the Core API (`rest-adapter/v1/routes/customers.routes.ts`)
 * and the Customer Portal API (the customer itself, `customer-portal-*.routes.ts`). The route table
 * and the resolvers check these same objects, so REST and GraphQL clients get the same 401/403.
 */
export const CUSTOMERS_READ = coreApiRule('customers:read', 'customers:write');
export const CUSTOMERS_WRITE = coreApiRule('customers:write');

/** The Customer Portal API as a whole: its customer and its subscriptions. */
export const CUSTOMER_PORTAL_READ = customerPortalRule('customer_portal:read', 'customer_portal:write');
export const CUSTOMER_PORTAL_WRITE = customerPortalRule('customer_portal:write');

/**
 * Checking and verifying a portal e-mail change (`/v1/customer-portal/customers/me/email-update/check` and
 * `/verify`): no credential, whoever calls; the token e-mailed to the new address is the proof.
 */
export const CUSTOMER_EMAIL_UPDATE_TOKEN: AccessRule = { subjects: ['anonymous'], scopes: [] };
