import '../../kit/process/heap-tuning.js';
import 'reflect-metadata';
import { systemClock } from '../../kit/clock.js';
import { databaseWaitsOf } from '../../kit/config.js';
import { OWNER_MAILBOX_RPC } from '../../kit/email/owner-mailbox.js';
import { signedRpcClient, signedRpcRoutes } from '../../kit/http/signed-rpc.js';
import { createLogger } from '../../kit/logger.js';
import { LEAKED_TOKEN_RPC } from '../../kit/leaked-tokens.js';
import { runMain } from '../../kit/process/run-service.js';
import { runSubgraph } from '../../kit/process/run-subgraph.js';
import { OAUTH2_PROVIDER_RPC } from './oauth2/oauth2.contract.js';
import { InProcessOAuth2Provider } from './oauth2/oauth2.provider.js';
import { ORGANIZATION_DIRECTORY_RPC } from './organizations/organization-directory.contract.js';
import { startIdentity } from './runtime.js';
import { WEB_IDENTITY_RPC } from './web/web.contract.js';
import { InProcessWebIdentity } from './web/web.provider.js';

/**
 * The identity subgraph as its own process (distributed topology, `node dist/subgraphs/identity/main.js`):
 * one environment (ENVIRONMENT) on DATABASE_URL, serving subgraph fetches signed by the gateway,
 * principal look-ups (bearer / session → principal) signed by the REST adapter, and the two contracts
 * the adapter's pages, OAuth endpoints and secret scanning use (`/internal/web/*`, `/internal/oauth2/*`,
 * `/internal/leaked-tokens/*`, and `/internal/organizations/*` for billing and the portal pages, signed JSON
 * RPC: the same objects the embedded topology calls in-process). Migrates its schema at start
 * (advisory-locked, so several replicas may start at once).
 */
runMain(() =>
  runSubgraph({
    service: 'identity',
    start: async config => {
      const runtime = await startIdentity({
        databaseUrl: config.DATABASE_URL,
        secret: config.SECRET,
        databaseWaits: databaseWaitsOf(config),
        clock: systemClock,
        logger: createLogger(config.LOG_LEVEL, { service: 'identity-notices', environment: config.ENVIRONMENT }),
      });
      // The owner e-mails identity owes (leaked tokens revoked) go to billing's outbox (BILLING_URL);
      // without it they wait in identity.owner_notices until a process that has it starts.
      if (config.BILLING_URL)
        runtime.ownerNotices.start(signedRpcClient(OWNER_MAILBOX_RPC, config.BILLING_URL, config.INTERNAL_KEY));
      return runtime;
    },
    principals: runtime => runtime.principals,
    internalRoutes: (runtime, config, logger) => ({
      ...signedRpcRoutes(
        WEB_IDENTITY_RPC,
        new InProcessWebIdentity(runtime.orm, runtime.services, runtime.clock),
        config.INTERNAL_KEY,
        logger,
      ),
      ...signedRpcRoutes(
        OAUTH2_PROVIDER_RPC,
        new InProcessOAuth2Provider(runtime.orm, runtime.services.oauth2, runtime.clock, logger),
        config.INTERNAL_KEY,
        logger,
      ),
      ...signedRpcRoutes(LEAKED_TOKEN_RPC, runtime.leakedTokens, config.INTERNAL_KEY, logger),
      ...signedRpcRoutes(ORGANIZATION_DIRECTORY_RPC, runtime.organizations, config.INTERNAL_KEY, logger),
    }),
  }),
);
