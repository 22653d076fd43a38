import { coreApiRule } from '../../../kit/graphql/authorize.js';

/** Who may call the dispute operations of the Core API (`rest-adapter/v1/routes/disputes.routes.ts`), as Polar. */
export const DISPUTES_READ = coreApiRule('disputes:read', 'disputes:write');
export const DISPUTES_WRITE = coreApiRule('disputes:write');
