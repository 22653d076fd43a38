import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../kit/clock.js';
import type { Principal } from '../../kit/principal.js';
import type { IdentityServices } from './services.js';

/** What every identity resolver receives: a request-scoped EntityManager fork, the caller, time. */
export interface IdentityContext {
  em: EntityManager;
  principal: Principal;
  clock: Clock;
  requestId: string;
  services: IdentityServices;
}
