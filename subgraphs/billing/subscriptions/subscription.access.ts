import { coreApiRule } from '../../../kit/graphql/authorize.js';

/**
 * Who may call the subscription operations of the Core API (`rest-adapter/v1/routes/subscriptions.routes.ts`):
 * the route table and the resolvers check these same objects, so REST and GraphQL clients get the
 * same 401/403. The customer portal's subscriptions use `CUSTOMER_PORTAL_READ`/`_WRITE`
 * (`customers/customer.access.ts`).
 */
export const SUBSCRIPTIONS_READ = coreApiRule('subscriptions:read', 'subscriptions:write');
export const SUBSCRIPTIONS_WRITE = coreApiRule('subscriptions:write');
