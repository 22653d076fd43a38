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
  /**
   * For statements that need no unit of work (the read path, kit/database/read/): the request's fork
   * once something has made it, else the ORM's global EntityManager (whose transaction context is the
   * running transaction's, if any). A subgraph whose context forks `em` lazily sets it, so a request
   * that only reads never pays for a fork (a measurable share of a one-row list, docs/performance.md). Absent: `em`.
   */
  readonly reader?: EntityManager;
}

/** The EntityManager a read-path statement runs on (see `RequestContext.reader`). */
export const readerOf = (ctx: RequestContext): EntityManager => ctx.reader ?? ctx.em;
