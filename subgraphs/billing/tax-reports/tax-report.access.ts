import { coreApiRule } from '../../../kit/graphql/authorize.js';

/**
 * Who may read the tax reports (`rest-adapter/v1/routes/taxes.routes.ts`): Polar's `TaxRead`, users and
 * organization tokens with `transactions:read` (or `transactions:write`).
 */
export const TAXES_READ = coreApiRule('transactions:read');
