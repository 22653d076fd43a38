import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../kit/clock.js';
import type { EnvironmentName } from '../../kit/config.js';
import { listenForPrincipalInvalidations } from '../../kit/database/principal-invalidations.js';
import type { SubgraphRuntime } from '../../kit/graphql/subgraph-runtime.js';
import type { LeakedTokenRevoker } from '../../kit/leaked-tokens.js';
import { InProcessLeakedCustomerSessionRevoker } from './customer-sessions/leaked-customer-session.revoker.js';
import { PrincipalCache } from '../../kit/principal-cache.js';
import { CustomerSessionPrincipalResolver } from './auth/customer-principal-resolver.js';
import type { BillingContext } from './context.js';
import { openBillingOrm } from './orm.js';
import { BILLING_SUBGRAPH, buildBillingSchema } from './schema.js';
import { type BillingServices, createBillingServices } from './services.js';

// What a composition root (embedded/) wires around the runtime, so that it imports nothing else of billing.
export { CustomerSessionPrincipalResolver } from './auth/customer-principal-resolver.js';

export interface BillingRuntime extends SubgraphRuntime<BillingContext> {
  orm: MikroORM;
  services: BillingServices;
  /** `polar_cst_` bearers → customer principals (kit/composite-principal-resolver.ts routes them here). */
  principals: CustomerSessionPrincipalResolver;
  /** Revokes leaked customer session tokens (secret scanning, kit/leaked-tokens.ts). */
  leakedTokens: LeakedTokenRevoker;
  close(): Promise<void>;
}

/** Connects, migrates and builds the billing subgraph for one environment's database. */
export async function startBilling(options: {
  databaseUrl: string;
  secret: string;
  clock: Clock;
  environment: EnvironmentName;
  publicUrl: string;
  poolMax?: number;
}): Promise<BillingRuntime> {
  const orm = await openBillingOrm(options.databaseUrl, options.poolMax);
  const schema = await buildBillingSchema();
  const cache = new PrincipalCache();
  // Customers deleted by any process on this database end their cached sessions here at once.
  let invalidations: Awaited<ReturnType<typeof listenForPrincipalInvalidations>>;
  try {
    invalidations = await listenForPrincipalInvalidations(options.databaseUrl, cache);
  } catch (error) {
    await orm.close();
    throw error;
  }
  const services = createBillingServices({
    secret: options.secret,
    clock: options.clock,
    environment: options.environment,
    publicUrl: options.publicUrl,
    principals: cache,
  });
  return {
    name: BILLING_SUBGRAPH,
    schema,
    orm,
    services,
    principals: new CustomerSessionPrincipalResolver(orm, options.secret, options.clock, cache),
    leakedTokens: new InProcessLeakedCustomerSessionRevoker(orm, options.secret, options.clock, cache),
    createContext: (principal, requestId) => {
      const em = orm.em.fork();
      return {
        em,
        principal,
        clock: options.clock,
        clockFor: organizationId => services.clocks.clockFor(em, organizationId),
        requestId,
        services,
      };
    },
    close: async () => {
      await invalidations.close();
      await orm.close();
    },
  };
}
