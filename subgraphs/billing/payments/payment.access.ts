import { coreApiRule } from '../../../kit/graphql/authorize.js';

/** `/v1/payments/` (list, get): Polar has no payments:write; reading needs payments:read. */
export const PAYMENTS_READ = coreApiRule('payments:read');
