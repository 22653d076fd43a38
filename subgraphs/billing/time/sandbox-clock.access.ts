import { coreApiRule } from '../../../kit/graphql/authorize.js';

/**
 * Who may read and move an organization's sandbox clock (`rest-adapter/v1/routes/sandbox-clock.routes.ts`
 * and the resolver check these objects). Moving it runs renewals and dunning, so it needs what changing
 * subscriptions needs.
 */
export const SANDBOX_CLOCK_READ = coreApiRule('subscriptions:read', 'subscriptions:write');
export const SANDBOX_CLOCK_ADVANCE = coreApiRule('subscriptions:write');
