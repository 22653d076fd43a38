import { coreApiRule } from '../../../kit/graphql/authorize.js';

/**
 * Who may call the discount operations: the route table (`rest-adapter/v1/routes/discounts.routes.ts`)
 * and the resolvers check these same objects, so REST and GraphQL clients get the same 401/403.
 * Core API only: a customer session sees a discount only embedded in its own subscriptions.
 */
export const DISCOUNTS_READ = coreApiRule('discounts:read', 'discounts:write');
export const DISCOUNTS_WRITE = coreApiRule('discounts:write');
