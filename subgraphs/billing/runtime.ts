import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../kit/clock.js';
import type { SubgraphRuntime } from '../../kit/graphql/subgraph-runtime.js';
import type { BillingContext } from './context.js';
import { openBillingOrm } from './orm.js';
import { BILLING_SUBGRAPH, buildBillingSchema } from './schema.js';
import { type BillingServices, createBillingServices } from './services.js';

// What a composition root (embedded/) wires around the runtime, so that it imports nothing else of billing.
export { CustomerSessionPrincipalResolver } from './auth/customer-principal-resolver.js';
export { OutboxRelay } from './events/outbox-relay.js';

export interface BillingRuntime extends SubgraphRuntime<BillingContext> {
  orm: MikroORM;
  services: BillingServices;
  close(): Promise<void>;
}

/** Connects, migrates and builds the billing subgraph for one environment's database. */
export async function startBilling(options: {
  databaseUrl: string;
  secret: string;
  clock: Clock;
  publicUrl: string;
  poolMax?: number;
}): Promise<BillingRuntime> {
  const orm = await openBillingOrm(options.databaseUrl, options.poolMax);
  const schema = await buildBillingSchema();
  const services = createBillingServices({
    secret: options.secret,
    clock: options.clock,
    publicUrl: options.publicUrl,
  });
  return {
    name: BILLING_SUBGRAPH,
    schema,
    orm,
    services,
    createContext: (principal, requestId) => ({
      em: orm.em.fork(),
      principal,
      clock: options.clock,
      requestId,
      services,
    }),
    close: () => orm.close(),
  };
}
