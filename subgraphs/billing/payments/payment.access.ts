import { type AccessRule, coreApiRule } from '../../../kit/graphql/authorize.js';

/** `/v1/payments/` (list, get): Polar has no payments:write; reading needs payments:read. */
export const PAYMENTS_READ = coreApiRule('payments:read');

/** The sandbox's 3-D Secure challenge: anyone holding the intent's client secret (it is the credential, as at Stripe). */
export const PAYMENT_CHALLENGE: AccessRule = { subjects: ['anonymous'], scopes: [] };
