import '../kit/process/heap-tuning.js';
import { createServer } from 'node:http';
import { deploymentPublicUrl, loadConfig } from '../kit/config.js';
import { keepIdleSocketsLonger } from '../kit/http/idle-sockets.js';
import { joinUrl, reachable } from '../kit/http/peers.js';
import { createLogger } from '../kit/logger.js';
import { requireConfig } from '../kit/process/require-config.js';
import { runMain, runService } from '../kit/process/run-service.js';
import { assembleRestApp } from './assemble.js';
import { stripeJsFromConfig } from './web-kit/stripe-js.js';
import { createRequestGuards } from './guards/request-guards.js';
import { HttpGatewayClient } from './upstream/gateway-client.js';
import { HttpPrincipalResolver } from './upstream/http-principal-resolver.js';
import { CompositePrincipalResolver } from '../kit/composite-principal-resolver.js';
import { TOKEN_PREFIXES } from '../kit/tokens.js';
import { signedRpcClient } from '../kit/http/signed-rpc.js';
import { OAUTH2_PROVIDER_RPC, ORGANIZATION_DIRECTORY_RPC, WEB_IDENTITY_RPC } from '../subgraphs/identity/contract.js';
import { listenForPrincipalInvalidations } from '../kit/database/principal-invalidations.js';
import { LEAKED_TOKEN_RPC } from '../kit/leaked-tokens.js';
import { PROCESSOR_WEBHOOKS_RPC } from '../kit/processor-webhooks.js';
import { loadGitHubPublicKeys } from './inbound/secret-scanning/github-keys.js';
import { PrincipalCache } from '../kit/principal-cache.js';
import { declareDirectDatabase } from '../kit/database/direct-urls.js';

/**
 * The REST adapter as its own process (distributed topology, `node dist/rest-adapter/main.js`): the
 * public face of one environment (ENVIRONMENT). Bearers are resolved by the identity process, every
 * operation runs on the gateway process; both hops are signed with INTERNAL_KEY. Customer session
 * bearers (`polar_cst_`) are resolved by the billing process instead, which owns them. The pages and
 * the OAuth endpoints call identity's published contracts over its signed internal endpoints
 * (kit/http/signed-rpc.ts); this process holds no database and not SECRET: CSRF keys are derived from
 * INTERNAL_KEY.
 */

async function main(): Promise<void> {
  const config = loadConfig();
  declareDirectDatabase(config);
  const logger = createLogger(config.LOG_LEVEL, { service: 'rest-adapter', environment: config.ENVIRONMENT });
  const required = requireConfig(
    config,
    ['INTERNAL_KEY', 'GATEWAY_URL', 'IDENTITY_URL', 'BILLING_URL'],
    'the REST adapter process',
  );
  const gatewayUrl = required.GATEWAY_URL;
  const identityUrl = required.IDENTITY_URL;
  const billingUrl = required.BILLING_URL;
  // Resolved bearers are remembered here only while this process hears every revocation: with
  // DATABASE_URL it LISTENs for them (kit/database/principal-invalidations.ts); without, every request
  // asks identity or billing, whose own caches are kept in step.
  const principalCache = new PrincipalCache();
  const invalidations = config.DATABASE_URL
    ? await listenForPrincipalInvalidations(config.DATABASE_URL, principalCache)
    : undefined;

  // No database here: idempotency keys live in Redis (REDIS_URL), else in this process's memory.
  const guards = await createRequestGuards({ environment: config.ENVIRONMENT, config, logger });
  const app = assembleRestApp({
    environment: config.ENVIRONMENT,
    stripeJs: config.ENVIRONMENT === 'production' ? stripeJsFromConfig(config) : null,
    guards,
    publicUrl: deploymentPublicUrl(config),
    gateway: new HttpGatewayClient(joinUrl(gatewayUrl, 'graphql'), required.INTERNAL_KEY),
    // Customer sessions are billing's, every other credential identity's (kit/composite-principal-resolver.ts).
    principals: new CompositePrincipalResolver(
      new HttpPrincipalResolver(identityUrl, required.INTERNAL_KEY, principalCache),
      {
        [TOKEN_PREFIXES.customerSession]: new HttpPrincipalResolver(billingUrl, required.INTERNAL_KEY, principalCache),
      },
    ),
    logger,
    web: {
      identity: signedRpcClient(WEB_IDENTITY_RPC, identityUrl, required.INTERNAL_KEY),
      csrfSecret: required.INTERNAL_KEY,
    },
    oauth2: signedRpcClient(OAUTH2_PROVIDER_RPC, identityUrl, required.INTERNAL_KEY),
    // The customer portal pages find the seller by its slug.
    organizations: signedRpcClient(ORGANIZATION_DIRECTORY_RPC, identityUrl, required.INTERNAL_KEY),
    secretScanning: {
      keys: loadGitHubPublicKeys(config),
      revokers: [identityUrl, billingUrl].map(url => signedRpcClient(LEAKED_TOKEN_RPC, url, required.INTERNAL_KEY)),
    },
    // Stripe's webhooks go to billing as received; billing verifies and applies them.
    processorWebhooks: signedRpcClient(PROCESSOR_WEBHOOKS_RPC, billingUrl, required.INTERNAL_KEY),
    // Ready when the hops requests make answer: the gateway and the processes that resolve bearers.
    ready: async () =>
      (await Promise.all([gatewayUrl, identityUrl, billingUrl].map(url => reachable(joinUrl(url, 'healthz'))))).every(
        Boolean,
      ),
  });

  await runService({
    service: 'rest-adapter',
    logger,
    host: config.HOST,
    port: config.PORT,
    metrics: config,
    // What Express's app.listen does, so the shared listen and shutdown apply.
    start: async onClose => {
      if (invalidations) onClose(() => invalidations.close());
      onClose(() => guards.close());
      return {
        server: keepIdleSocketsLonger(createServer(app)),
        details: { gateway: gatewayUrl, identity: identityUrl, billing: billingUrl },
      };
    },
  });
}

runMain(main);
