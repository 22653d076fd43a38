/**
 * The OAuth 2.0 / OpenID Connect endpoints of router.ts as OpenAPI paths and schemas, written by hand
 * (the router has no route table): test/contract/openapi-coverage.test.ts fails when this and the
 * routes Express serves differ. Wire shapes: docs/polar/resources.md#oauth-client-schemas, docs/polar/auth.md#oauth-and-oidc-server, and the RFCs named in the two files below.
 * The consent form (`POST /oauth2/consent`) is a step of the authorization page, not an endpoint.
 */
export { oauth2Paths } from './oauth2-paths.openapi.js';
export { oauth2Schemas } from './oauth2-schemas.openapi.js';
