import { coreApiRule } from '../../../kit/graphql/authorize.js';

/** Who may call the refund operations of the Core API (`rest-adapter/v1/routes/refunds.routes.ts`), as Polar. */
export const REFUNDS_READ = coreApiRule('refunds:read', 'refunds:write');
export const REFUNDS_WRITE = coreApiRule('refunds:write');
