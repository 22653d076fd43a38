import 'reflect-metadata';
import { systemClock } from '../../kit/clock.js';
import { type Config, deploymentPublicUrl } from '../../kit/config.js';
import { signedRpcRoutes } from '../../kit/http/signed-rpc.js';
import { LEAKED_TOKEN_RPC } from '../../kit/leaked-tokens.js';
import { runMain } from '../../kit/process/run-service.js';
import { runSubgraph } from '../../kit/process/run-subgraph.js';
import { startBilling } from './runtime.js';

// Customer portal links use the environment's public address, as the REST adapter process reads it;
// this process's own port is not public, so the fallback is the adapter's default port.
const publicUrl = (config: Config) => deploymentPublicUrl(config, 8000);

/**
 * The billing subgraph as its own process (distributed topology, `node dist/subgraphs/billing/main.js`):
 * one environment (ENVIRONMENT) on DATABASE_URL, serving subgraph fetches signed by the gateway and
 * customer session look-ups (`polar_cst_` → principal) signed by the REST adapter.
 * Migrates its schema at start (advisory-locked, so several replicas may start at once).
 */
runMain(() =>
  runSubgraph({
    service: 'billing',
    start: config =>
      startBilling({
        databaseUrl: config.DATABASE_URL,
        secret: config.SECRET,
        clock: systemClock,
        environment: config.ENVIRONMENT,
        publicUrl: publicUrl(config),
      }),
    principals: runtime => runtime.principals,
    // Leaked customer session tokens reported by GitHub secret scanning (kit/leaked-tokens.ts).
    internalRoutes: (runtime, config, logger) =>
      signedRpcRoutes(LEAKED_TOKEN_RPC, runtime.leakedTokens, config.INTERNAL_KEY, logger),
  }),
);
