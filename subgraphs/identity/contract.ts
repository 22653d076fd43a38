/**
 * The identity subgraph's published contract: everything another part of the code base (the REST
 * adapter, its pages and OAuth endpoints, the gateway, another subgraph) may import from identity,
 * and nothing else. What is not exported here (entities, repositories, services, resolvers) may
 * change without telling anyone. `test/contract/import-cycles.test.ts` fails when a file outside
 * `subgraphs/identity/` imports any other identity module (composition roots may also import
 * `runtime.ts`).
 *
 * Kept free of I/O: importing it loads no database or GraphQL schema.
 */

// Who may call each operation: the route table checks the very objects the resolvers check.
export { ORGANIZATIONS_CREATE, ORGANIZATIONS_READ, ORGANIZATIONS_UPDATE } from './organizations/organization.access.js';
export {
  ORGANIZATION_ACCESS_TOKENS_READ,
  ORGANIZATION_ACCESS_TOKENS_WRITE,
} from './tokens/organization-access-token.access.js';

// Enums that travel on the wire or in forms.
export { MANAGING_ROLES, MemberRole } from './memberships/membership.entity.js';

// The values an organization's social links and default tax behaviour accept (the REST schemas say the same).
export { SOCIAL_PLATFORMS, TAX_BEHAVIORS } from './organizations/organization.validation.js';

// Sort keys the organization list accepts, and its default order.
export { ORGANIZATION_DEFAULT_SORTING, ORGANIZATION_SORT_KEYS } from './organizations/organization.sorting.js';

// The OAuth 2.0 / OIDC provider as the HTTP endpoints see it: plain JSON in and out.
export {
  AUTH_METHODS,
  CODE_CHALLENGE_METHODS,
  GRANT_TYPES,
  PROMPT_VALUES,
  SCOPES_SUPPORTED,
  SUB_TYPES,
  describeScope,
} from './oauth2/oauth2.constants.js';
export type {
  AuthorizationParams,
  AuthorizeOutcome,
  ClientManagementCaller,
  ConsentDecision,
  ConsentOrganization,
  ConsentView,
  OAuth2Provider,
  OAuthFormRequest,
  OAuthHttpResult,
  SignedInPerson,
} from './oauth2/oauth2.contract.js';
export { OAUTH2_PROVIDER_RPC } from './oauth2/oauth2.contract.js';

// What the sign-in and settings pages need from identity: plain JSON, in-process or over signed RPC.
export { WEB_IDENTITY_RPC } from './web/web.contract.js';
export type {
  InvitationRow,
  InvitationView,
  MemberRow,
  OrganizationPage,
  OrganizationSummary,
  TokenRow,
  WebIdentity,
  WebSession,
} from './web/web.contract.js';

// An organization's public profile and customer portal settings, for billing and the portal pages.
export { ORGANIZATION_DIRECTORY_RPC } from './organizations/organization-directory.contract.js';
export type { OrganizationDirectory, OrganizationProfile } from './organizations/organization-directory.contract.js';
export type { CustomerPortalSettings } from './organizations/organization.settings.js';
