import { API_VERSIONS, CURRENT_API_VERSION, DEFAULT_API_VERSION } from './v1/versions/api-versions.js';
import { oauth2Paths, oauth2Schemas } from './oauth/oauth2.openapi.js';
import { operationOf } from './v1/openapi/route-operations.js';
import { securitySchemes } from './v1/openapi/security.js';
import {
  processorWebhookPaths,
  processorWebhookSchemas,
} from './inbound/processor-webhooks/processor-webhooks.openapi.js';
import { secretScanningPaths, secretScanningSchemas } from './inbound/secret-scanning/secret-scanning.openapi.js';
import { servicePaths, serviceSchemas } from './v1/openapi/service.openapi.js';
import { storagePaths } from './inbound/storage/storage.openapi.js';
import {
  errorResponses,
  errorSchemas,
  type Json,
  polarOrganizationParameter,
  polarVersionParameter,
} from './v1/openapi/wire-schemas.js';
import type { Route } from './v1/routes/route.js';

export { renderDocsPage } from './v1/openapi/docs-page.js';

/** Tags in reading order: the route table's, then the OAuth provider, then the service's own endpoints. */
const tagsOf = (routes: Route[]): Json[] => [
  ...[...new Set(routes.map(r => r.tag))].map(name => ({ name })),
  { name: 'oauth2', description: 'OAuth 2.0 / OpenID Connect provider: discovery, authorization, tokens, clients.' },
  { name: 'service', description: 'Probes, this document and the GraphQL endpoint.' },
  {
    name: 'integrations',
    description:
      "Partner endpoints: GitHub secret scanning revokes leaked tokens; Stripe's webhooks settle pending payments.",
  },
];

/**
 * OpenAPI 3.1 for everything the service serves but its HTML pages: the REST operations, generated
 * from the same route table the router uses; the OAuth 2.0 / OIDC endpoints (oauth/oauth2.openapi.ts);
 * the probes, /openapi.json and /graphql (v1/openapi/service.openapi.ts); GitHub secret scanning
 * (inbound/secret-scanning/secret-scanning.openapi.ts); Stripe's webhooks (inbound/processor-webhooks/);
 * the storage routes of signed file links (inbound/storage/storage.openapi.ts).
 */
export function buildOpenApi(routes: Route[], serverUrl?: string): Record<string, unknown> {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method] = operationOf(route);
  Object.assign(paths, oauth2Paths, servicePaths, secretScanningPaths, processorWebhookPaths, storagePaths);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Subscription billing API',
      // The newest version's shape; v1/versions/versioned-openapi.ts derives each version's document.
      version: CURRENT_API_VERSION,
      description:
        'Polar-compatible REST API. All API paths are under /v1; collection paths end with a slash. ' +
        `API versions: ${API_VERSIONS.join(', ')}, picked with the \`Polar-Version\` header; without it, ` +
        `${DEFAULT_API_VERSION}, the version of \`/openapi.json\`. Each version's document is at ` +
        '`/<version>/openapi.json`; any other version answers 404 with `Polar-Supported-Versions`. ' +
        'Authenticate with `Authorization: Bearer <token>`. Two operations take no bearer: GitHub secret scanning ' +
        "reports leaked tokens to `POST /v1/integrations/github/secret-scanning`, signed with GitHub's key, and " +
        "Stripe sends its events to `POST /v1/integrations/stripe/webhook`, signed with the endpoint's secret.",
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    tags: tagsOf(routes),
    paths,
    components: {
      securitySchemes: securitySchemes(serverUrl),
      parameters: {
        PolarVersion: polarVersionParameter(API_VERSIONS, DEFAULT_API_VERSION),
        PolarOrganization: polarOrganizationParameter,
      },
      responses: errorResponses,
      schemas: {
        ...errorSchemas,
        ...oauth2Schemas,
        ...serviceSchemas,
        ...secretScanningSchemas,
        ...processorWebhookSchemas,
      },
    },
  };
}
