import { coreApiRule, customerPortalRule } from '../../../kit/graphql/authorize.js';

/** `/v1/customer-meters/` (Polar's scope `customer_meters:read`). */
export const CUSTOMER_METERS_READ = coreApiRule('customer_meters:read');
/** `/v1/customer-portal/meters/`: the customer session's own meters. */
export const CUSTOMER_PORTAL_METERS_READ = customerPortalRule('customer_portal:read', 'customer_portal:write');
