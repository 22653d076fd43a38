import type { AccessRule } from '../../../kit/graphql/authorize.js';

/**
 * The Customer Portal API's public reads (Polar's `GET /v1/customer-portal/organizations/{slug}`): no
 * credential, whoever calls; what they answer is what a seller shows every visitor.
 */
export const CUSTOMER_PORTAL_PUBLIC: AccessRule = { subjects: ['anonymous'], scopes: [] };
