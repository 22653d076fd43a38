import { coreApiRule } from '../../../kit/graphql/authorize.js';

/** Who may call the custom field operations (`rest-adapter/v1/routes/custom-fields.routes.ts`), as Polar. */
export const CUSTOM_FIELDS_READ = coreApiRule('custom_fields:read', 'custom_fields:write');
export const CUSTOM_FIELDS_WRITE = coreApiRule('custom_fields:write');
