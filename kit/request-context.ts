import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from './clock.js';
import type { Principal } from './principal.js';

/**
 * What a use case needs to know about the request it serves: a request-scoped EntityManager fork
 * (of its own subgraph's database), the caller, the time and the request id for logs. Services,
 * repositories, loaders and reference resolvers take this; only resolvers also get their subgraph's
 * service registry (`subgraphs/<name>/context.ts`), so no service module ever imports the registry
 * that imports it.
 */
export interface RequestContext {
  em: EntityManager;
  principal: Principal;
  clock: Clock;
  /**
   * The clock of one organization's objects (billing: the sandbox clock of that organization, the wall
   * clock in production). Absent: `clock`.
   */
  clockFor?: (organizationId: string) => Promise<Clock>;
  requestId: string;
}
