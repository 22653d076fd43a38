import { coreApiRule } from '../../../kit/graphql/authorize.js';

/** Who may call the meter operations of the Core API (`rest-adapter/v1/routes/meters.routes.ts`), as Polar. */
export const METERS_READ = coreApiRule('meters:read', 'meters:write');
export const METERS_WRITE = coreApiRule('meters:write');
