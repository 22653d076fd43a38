import type { RequestContext } from '../../kit/request-context.js';
import type { IdentityServices } from './services.js';

/**
 * What every identity resolver receives: the request (what services take: a request-scoped
 * EntityManager fork, the caller, time) and the service registry.
 */
export interface IdentityContext extends RequestContext {
  services: IdentityServices;
}
