import 'reflect-metadata';
import { systemClock } from '../../kit/clock.js';
import type { Config } from '../../kit/config.js';
import { runMain } from '../../kit/process/run-service.js';
import { runSubgraph } from '../../kit/process/run-subgraph.js';
import { CustomerSessionPrincipalResolver } from './auth/customer-principal-resolver.js';
import { startBilling } from './runtime.js';

/**
 * The environment's public address (customer portal links): PUBLIC_URL (SANDBOX_PUBLIC_URL first for
 * a sandbox deployment), as the REST adapter process reads it. This process's own port is not public.
 */
function publicUrl(config: Config): string {
  const configured = config.ENVIRONMENT === 'sandbox' ? (config.SANDBOX_PUBLIC_URL ?? config.PUBLIC_URL) : config.PUBLIC_URL;
  return (configured ?? `http://${config.HOST}:8000`).replace(/\/$/, '');
}

/**
 * The billing subgraph as its own process (distributed topology, `node dist/subgraphs/billing/main.js`):
 * one environment (ENVIRONMENT) on DATABASE_URL, serving subgraph fetches signed by the gateway and
 * customer session look-ups (`polar_cst_` → principal) signed by the REST adapter.
 * Migrates its schema at start (advisory-locked, so several replicas may start at once).
 */
runMain(() =>
  runSubgraph({
    service: 'billing',
    start: config => startBilling({ databaseUrl: config.DATABASE_URL, secret: config.SECRET, clock: systemClock, publicUrl: publicUrl(config) }),
    principals: (runtime, config) => new CustomerSessionPrincipalResolver(runtime.orm, config.SECRET, systemClock),
  }),
);
