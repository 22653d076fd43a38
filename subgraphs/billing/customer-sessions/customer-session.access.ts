import { type AccessRule, coreApiRule } from '../../../kit/graphql/authorize.js';

/**
 * Who may create a customer session: the route table (`rest-adapter/v1/routes/customer-sessions.routes.ts`)
 * and the resolver check this same object, so REST and GraphQL clients get the same 401/403.
 */
export const CUSTOMER_SESSIONS_WRITE = coreApiRule('customer_sessions:write');

/**
 * Polar's one-time-code sign-in of the customer portal (`/v1/customer-portal/customer-session/request`
 * and `…/authenticate`): no credential, whoever calls; the e-mailed code is what proves the customer.
 */
export const CUSTOMER_SESSION_CODE: AccessRule = { subjects: ['anonymous'], scopes: [] };
