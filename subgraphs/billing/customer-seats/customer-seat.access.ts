import { type AccessRule, coreApiRule } from '../../../kit/graphql/authorize.js';

/** Who may call the seat operations of the Core API (`rest-adapter/v1/routes/customer-seats.routes.ts`). */
export const CUSTOMER_SEATS_READ = coreApiRule('customer_seats:read', 'customer_seats:write');
export const CUSTOMER_SEATS_WRITE = coreApiRule('customer_seats:write');

/**
 * An invitation's claim info and its claim: whoever holds the token (the e-mailed link), signed in or
 * not, as Polar's two endpoints take no credentials.
 */
export const CUSTOMER_SEAT_CLAIM: AccessRule = { subjects: ['anonymous', 'user', 'organization'], scopes: [] };
