import type { RequestContext } from '../../kit/request-context.js';
import type { BillingServices } from './services.js';

/**
 * What every billing resolver receives: the request (what services take) and the service registry.
 * Tenant scope comes only from `principal.organizationIds` (resolved by identity at the edge):
 * billing never reads identity's tables.
 */
export interface BillingContext extends RequestContext {
  services: BillingServices;
}
