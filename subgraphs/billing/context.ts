import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../kit/clock.js';
import type { Principal } from '../../kit/principal.js';
import type { BillingServices } from './services.js';

/**
 * What every billing resolver receives. Tenant scope comes only from `principal.organizationIds`
 * (resolved by identity at the edge): billing never reads identity's tables.
 */
export interface BillingContext {
  em: EntityManager;
  principal: Principal;
  clock: Clock;
  requestId: string;
  services: BillingServices;
}
