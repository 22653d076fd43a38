import { coreApiRule } from '../../../kit/graphql/authorize.js';

/**
 * Who may manage webhook endpoints and read their deliveries: the route table
 * (`rest-adapter/v1/routes/webhooks.routes.ts`) and the resolvers check these same objects.
 */
export const WEBHOOKS_READ = coreApiRule('webhooks:read', 'webhooks:write');
export const WEBHOOKS_WRITE = coreApiRule('webhooks:write');
