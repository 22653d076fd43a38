import type { ProcessorWebhooks } from '../kit/processor-webhooks.js';
import { createProcessorWebhookRouter } from './inbound/processor-webhooks/router.js';
import type { Express, Router } from 'express';
import type { EnvironmentName } from '../kit/config.js';
import type { Logger } from '../kit/logger.js';
import type { PrincipalResolver } from '../kit/principal.js';
import type { OAuth2Provider, OrganizationDirectory } from '../subgraphs/identity/contract.js';
import { createApp } from './app.js';
import type { GatewayClient } from './upstream/gateway-client.js';
import type { RequestGuards } from './guards/request-guards.js';
import { documentRequestGuards } from './guards/request-guards-openapi.js';
import { buildOpenApi, renderDocsPage } from './openapi.js';
import { createOAuth2Router } from './oauth/router.js';
import { OperationDocuments } from './v1/operations.js';
import { routesFor } from './v1/routes/index.js';
import { createStorageRouter } from './inbound/storage/storage.router.js';
import { createSecretScanningRouter, type SecretScanningDependencies } from './inbound/secret-scanning/router.js';
import { createCheckoutRouter } from './web/checkout/checkout.routes.js';
import { createPaymentChallengeRouter } from './web/checkout/payment-challenge.routes.js';
import type { CardEntry } from './web/checkout/checkout.views.js';
import { createCardAssetsRouter } from './web/card-entry/card-entry.router.js';
import type { StripeJsSettings } from './web-kit/stripe-js.js';
import type { WebDependencies } from './web/account-pages.js';
import { offeredScopes } from './web/settings/offered-scopes.js';
import { settingsRoutes } from './web/settings/settings.routes.js';
import { sandboxMailRoutes } from './web/sandbox-mail/sandbox-mail.routes.js';
import { dashboardRoutes } from './web/dashboard/dashboard.routes.js';
import { signInRoutes } from './web/sign-in/sign-in.routes.js';
import { PortalApi } from './web/portal/portal-api.js';
import { createPortalRouter } from './web/portal/portal-router.js';
import { configureWebKit } from './web-kit/settings.js';

export interface RestAppOptions {
  environment: EnvironmentName;
  /** Public base URL of this environment (servers in the OpenAPI document, OIDC issuer, links). */
  publicUrl: string;
  /** In-process gateway (embedded) or HTTP with a signed principal (distributed). */
  gateway: GatewayClient;
  /** Bearer → principal: identity in-process (embedded) or its /internal/principal endpoint (distributed). */
  principals: PrincipalResolver;
  logger: Logger;
  ready: () => Promise<boolean>;
  /**
   * The sign-in and settings pages (rest-adapter/web): identity's web contract (in-process when
   * embedded, signed internal HTTP when distributed) and the key CSRF tokens are derived from (SECRET
   * embedded; INTERNAL_KEY in the distributed adapter, which does not hold SECRET).
   */
  web?: { identity: WebDependencies['identity']; csrfSecret: string };
  /**
   * How the hosted checkout page (served with `web`) takes a card: the processor of the environment
   * (`describePaymentProcessor`); by default `test` in the sandbox and `stripe` in production.
   */
  checkoutCardEntry?: CardEntry;
  /**
   * STRIPE_PUBLISHABLE_KEY and STRIPE_JS_URL, when the environment charges through Stripe: the card
   * pages mount Stripe's Payment Element with them (without, they cannot take a card).
   */
  stripeJs?: StripeJsSettings | null;
  /** The OAuth 2.0 / OIDC provider (rest-adapter/oauth); its pages need `web` too. Issuer = publicUrl. */
  oauth2?: OAuth2Provider;
  /** The routes' GraphQL operations, when the caller has read them already (read here otherwise). */
  operations?: OperationDocuments;
  /** Rate limits and idempotency keys (`createRequestGuards`); the caller closes them. */
  guards?: RequestGuards;
  /** Facts shown on /readyz, such as the payment processor in use. */
  announcements?: Record<string, unknown>;
  /**
   * Identity's organization profiles (in-process or signed RPC): with `web`, the customer portal pages
   * (rest-adapter/web/portal) are served at `/portal/<slug>/…`.
   */
  organizations?: OrganizationDirectory;
  /** GitHub secret scanning (rest-adapter/inbound/secret-scanning): the configured keys and who revokes. */
  secretScanning?: Omit<SecretScanningDependencies, 'logger'>;
  /** Billing's receiver of Stripe's webhooks (rest-adapter/inbound/processor-webhooks). */
  processorWebhooks?: ProcessorWebhooks;
}

/** How the card pages take a card: the environment's processor; by default the sandbox's test methods or Stripe. */
const cardEntryOf = (options: RestAppOptions): CardEntry =>
  options.checkoutCardEntry ?? (options.environment === 'sandbox' ? 'test' : 'stripe');

/**
 * The REST adapter's app for one environment, assembled the same way in both topologies; only the
 * gateway client, the principal resolver and the readiness check differ (embedded/environment.ts,
 * rest-adapter/main.ts).
 */
export function assembleRestApp(options: RestAppOptions): Express {
  const routes = routesFor(options.environment);
  // Built on the first request that needs them (every body made from them is cached on first use too):
  // generating the document from the routes' zod schemas cost about as much as building the gateway, paid by
  // every start and test stack whether or not anyone reads it (docs/performance.md#the-test-suites-budget).
  let openapi: Record<string, unknown> | undefined;
  const document = () => (openapi ??= documentRequestGuards(buildOpenApi(routes, options.publicUrl)));
  let docs: string | undefined;
  const logger = options.logger.child({ environment: options.environment });
  const operations = options.operations ?? new OperationDocuments();
  const portal =
    options.web && options.organizations
      ? createPortalRouter({
          api: new PortalApi(routes, options.gateway, operations),
          principals: options.principals,
          organizations: options.organizations,
          publicUrl: options.publicUrl,
          logger,
          cardEntry: cardEntryOf(options),
          stripe: options.stripeJs ?? null,
        })
      : null;
  const app = createApp({
    environment: options.environment,
    publicUrl: options.publicUrl,
    gateway: options.gateway,
    principals: options.principals,
    routes,
    operations,
    logger,
    ready: options.ready,
    announcements: options.announcements,
    openapi: document,
    docsPage: () => (docs ??= renderDocsPage(document())),
    guards: options.guards,
    rawBodyRouters: [
      createStorageRouter({ gateway: options.gateway, operations, logger }),
      ...(options.secretScanning ? [createSecretScanningRouter({ ...options.secretScanning, logger })] : []),
      ...(options.processorWebhooks
        ? [createProcessorWebhookRouter({ webhooks: options.processorWebhooks, logger })]
        : []),
    ],
    extensions: [
      ...webPages(options, routes, operations, logger),
      ...(portal ? [portal] : []),
      ...(options.oauth2 ? [createOAuth2Router({ provider: options.oauth2, issuer: options.publicUrl, logger })] : []),
    ],
  });
  if (options.guards?.trustProxy) app.set('trust proxy', options.guards.trustProxy);
  if (options.web)
    configureWebKit(app, {
      secret: options.web.csrfSecret,
      publicUrl: options.publicUrl,
      environment: options.environment,
    });
  return app;
}

/**
 * The server-rendered pages beside the API, when the environment serves them: sign-in, the organization
 * settings, the sandbox's mail, the merchant dashboard, then the hosted checkout with its card scripts and the sandbox's bank
 * page (their paths never overlap).
 */
function webPages(
  options: RestAppOptions,
  routes: ReturnType<typeof routesFor>,
  operations: ConstructorParameters<typeof PortalApi>[2],
  logger: Logger,
): Router[] {
  if (!options.web) return [];
  return [
    signInRoutes({ identity: options.web.identity, logger }),
    settingsRoutes(
      { identity: options.web.identity, logger },
      { environment: options.environment, scopes: offeredScopes(routes) },
    ),
    sandboxMailRoutes({
      identity: options.web.identity,
      logger,
      api: new PortalApi(routes, options.gateway, operations),
      sandbox: options.environment === 'sandbox',
    }),
    dashboardRoutes({
      identity: options.web.identity,
      logger,
      api: new PortalApi(routes, options.gateway, operations),
      environment: options.environment,
      publicUrl: options.publicUrl,
    }),
    createCheckoutRouter({
      gateway: options.gateway,
      operations,
      logger,
      cardEntry: cardEntryOf(options),
      stripe: options.stripeJs ?? null,
    }),
    createCardAssetsRouter(),
    createPaymentChallengeRouter({ gateway: options.gateway, operations, logger }),
  ];
}
