import {
  AUTH_METHODS,
  CODE_CHALLENGE_METHODS,
  GRANT_TYPES,
  PROMPT_VALUES,
  SUB_TYPES,
} from '../../subgraphs/identity/contract.js';
import { type Json, jsonContent, polarVersionRef, refs, schemaRef } from '../v1/openapi/wire-schemas.js';
import { TAG, url, space, form, noStore, clientAuthentication } from './oauth2-schemas.openapi.js';

const authorizeParameters: Json[] = [
  ['response_type', true, { type: 'string', enum: ['code'] }],
  ['client_id', true, { type: 'string' }],
  ['redirect_uri', false, { ...url, description: 'One of the registered ones; required when several are' }],
  ['scope', false, { type: 'string', description: "Space-separated; default: the client's registered scope" }],
  ['state', false, { type: 'string' }],
  ['nonce', false, { type: 'string' }],
  ['code_challenge', false, { type: 'string', description: 'PKCE (RFC 7636); required for public clients' }],
  ['code_challenge_method', false, { type: 'string', enum: [...CODE_CHALLENGE_METHODS], default: 'plain' }],
  ['prompt', false, { type: 'string', enum: [...PROMPT_VALUES] }],
  ['max_age', false, { type: 'integer', minimum: 0 }],
  ['sub_type', false, { type: 'string', enum: [...SUB_TYPES] }],
  ['response_mode', false, { type: 'string', enum: ['query'] }],
].map(([name, required, schema]) => ({ name, in: 'query', required, schema }));

function authorizeOperation(operationId: string, summary: string): Json {
  return {
    operationId,
    summary,
    description:
      'The authorization endpoint (RFC 6749 §4.1.1, OIDC Core §3.1.2): a page for a person in a browser, signed ' +
      'in with the web session. Sends to `/login` first when nobody is, then shows the consent page; the ' +
      'answer goes back to `redirect_uri` with `code`, `state` and `iss` (RFC 9207), or with `error`.',
    tags: [TAG],
    security: [],
    parameters: [...authorizeParameters, polarVersionRef],
    responses: {
      200: { description: 'The consent page', content: { 'text/html': { schema: { type: 'string' } } } },
      302: {
        description: 'Back to the client: `redirect_uri?code=…&state=…&iss=…`, or `?error=…` (RFC 6749 §4.1.2.1)',
        headers: { Location: { schema: { type: 'string' } } },
      },
      303: {
        description: 'To `/login` first (nobody signed in, `prompt=login`, `max_age` passed)',
        headers: { Location: { schema: { type: 'string' } } },
      },
      400: {
        description: 'Unknown client or unusable redirect URI: an error page, never a redirect',
        content: { 'text/html': { schema: { type: 'string' } } },
      },
      ...refs([
        [401, 'InvalidToken'],
        [404, 'UnsupportedVersion'],
      ]),
    },
  };
}

const clientIdParameter = { name: 'client_id', in: 'path', required: true, schema: { type: 'string' } };

/** Every OAuth 2.0 / OIDC path router.ts serves, except the consent form. */
export const oauth2Paths: Record<string, Record<string, Json>> = {
  '/.well-known/openid-configuration': {
    get: {
      operationId: 'oauth2:openid_configuration',
      summary: 'OpenID Provider metadata',
      tags: [TAG],
      security: [],
      parameters: [polarVersionRef],
      responses: {
        200: { description: 'The metadata', content: jsonContent(schemaRef('OpenIDConfiguration')) },
        ...refs([
          [401, 'InvalidToken'],
          [404, 'UnsupportedVersion'],
        ]),
      },
    },
  },
  '/.well-known/oauth-authorization-server': {
    get: {
      operationId: 'oauth2:authorization_server_metadata',
      summary: 'OAuth 2.0 Authorization Server metadata (RFC 8414)',
      description: 'The same document as /.well-known/openid-configuration.',
      tags: [TAG],
      security: [],
      parameters: [polarVersionRef],
      responses: {
        200: { description: 'The metadata', content: jsonContent(schemaRef('OpenIDConfiguration')) },
        ...refs([
          [401, 'InvalidToken'],
          [404, 'UnsupportedVersion'],
        ]),
      },
    },
  },
  '/.well-known/jwks.json': {
    get: {
      operationId: 'oauth2:jwks',
      summary: 'The public keys that sign id_tokens',
      tags: [TAG],
      security: [],
      parameters: [polarVersionRef],
      responses: {
        200: { description: 'The key set', content: jsonContent(schemaRef('JSONWebKeySet')) },
        ...refs([
          [401, 'InvalidToken'],
          [404, 'UnsupportedVersion'],
        ]),
      },
    },
  },
  '/oauth2/authorize': { get: authorizeOperation('oauth2:authorize_page', 'Authorize a client (page)') },
  '/v1/oauth2/authorize': {
    get: authorizeOperation('oauth2:authorize', 'Authorize a client (page; alias of /oauth2/authorize)'),
  },
  '/v1/oauth2/token': {
    post: {
      operationId: 'oauth2:request_token',
      summary: 'Request a token',
      description:
        `Grants: ${space(GRANT_TYPES)}. Client authentication: ${space(AUTH_METHODS)} (as registered). ` +
        'Credentials in the URL are refused.',
      tags: [TAG],
      security: clientAuthentication,
      parameters: [polarVersionRef],
      requestBody: form('TokenRequest'),
      responses: {
        200: { description: 'Tokens', headers: noStore, content: jsonContent(schemaRef('TokenResponse')) },
        ...refs([
          [400, 'OAuthBadRequest'],
          [401, 'OAuthUnauthorized'],
          [404, 'UnsupportedVersion'],
          [413, 'PayloadTooLarge'],
          [422, 'ValidationError'],
        ]),
      },
    },
  },
  '/v1/oauth2/revoke': {
    post: {
      operationId: 'oauth2:revoke_token',
      summary: 'Revoke a token',
      tags: [TAG],
      security: clientAuthentication,
      parameters: [polarVersionRef],
      requestBody: form('RevokeTokenRequest'),
      responses: {
        200: { description: 'Revoked (or never was)', content: jsonContent(schemaRef('RevokeTokenResponse')) },
        ...refs([
          [400, 'OAuthBadRequest'],
          [401, 'OAuthUnauthorized'],
          [404, 'UnsupportedVersion'],
          [413, 'PayloadTooLarge'],
          [422, 'ValidationError'],
        ]),
      },
    },
  },
  '/v1/oauth2/introspect': {
    post: {
      operationId: 'oauth2:introspect_token',
      summary: 'Introspect a token',
      tags: [TAG],
      security: [{ client_secret_basic: [] }, {}],
      parameters: [polarVersionRef],
      requestBody: form('IntrospectTokenRequest'),
      responses: {
        200: { description: 'What the token is', content: jsonContent(schemaRef('IntrospectTokenResponse')) },
        ...refs([
          [400, 'OAuthBadRequest'],
          [401, 'OAuthUnauthorized'],
          [404, 'UnsupportedVersion'],
          [413, 'PayloadTooLarge'],
          [422, 'ValidationError'],
        ]),
      },
    },
  },
  '/v1/oauth2/userinfo': Object.fromEntries(
    (['get', 'post'] as const).map(method => [
      method,
      {
        operationId: method === 'get' ? 'oauth2:userinfo' : 'oauth2:userinfo:post',
        summary: 'The signed-in subject (OpenID Connect UserInfo)',
        description: 'An OAuth 2.0 access token granted `openid`. GET and POST answer the same.',
        tags: [TAG],
        security: [{ oauth2: ['openid'] }],
        parameters: [polarVersionRef],
        responses: {
          200: { description: 'The claims', headers: noStore, content: jsonContent(schemaRef('UserInfo')) },
          ...refs([
            [401, 'InvalidToken'],
            [403, 'InsufficientScope'],
            [404, 'UnsupportedVersion'],
          ]),
        },
      },
    ]),
  ),
  '/v1/oauth2/register': {
    post: {
      operationId: 'oauth2:clients:oauth2:create_client',
      summary: 'Register a client (RFC 7591)',
      description:
        'Anonymous, or from a browser signed in to this service (the person then manages the client). A personal ' +
        'API token is refused.',
      tags: [TAG],
      security: [],
      parameters: [polarVersionRef],
      requestBody: { required: true, content: jsonContent(schemaRef('OAuth2ClientConfiguration')) },
      responses: {
        201: {
          description: 'Registered',
          headers: noStore,
          content: jsonContent(schemaRef('OAuth2Client')),
        },
        400: {
          description: 'Invalid metadata (`invalid_client_metadata`, `invalid_redirect_uri`)',
          content: jsonContent(schemaRef('OAuthError')),
        },
        403: { description: 'Sent with a personal API token (NotPermitted)', content: jsonContent(schemaRef('Error')) },
        ...refs([
          [401, 'InvalidToken'],
          [404, 'UnsupportedVersion'],
          [413, 'PayloadTooLarge'],
          [422, 'ValidationError'],
        ]),
      },
    },
  },
  '/v1/oauth2/register/{client_id}': {
    get: {
      operationId: 'oauth2:clients:oauth2:get_client',
      summary: 'Read a registered client (RFC 7592)',
      tags: [TAG],
      security: [{ registration_access_token: [] }, {}],
      parameters: [clientIdParameter, polarVersionRef],
      responses: {
        200: { description: 'The client', content: jsonContent(schemaRef('OAuth2Client')) },
        ...refs([
          [401, 'InvalidToken'],
          [404, 'UnsupportedVersion'],
        ]),
      },
    },
    put: {
      operationId: 'oauth2:clients:oauth2:update_client',
      summary: 'Replace the metadata of a registered client (RFC 7592)',
      tags: [TAG],
      security: [{ registration_access_token: [] }, {}],
      parameters: [clientIdParameter, polarVersionRef],
      requestBody: { required: true, content: jsonContent(schemaRef('OAuth2ClientConfigurationUpdate')) },
      responses: {
        200: { description: 'The client', content: jsonContent(schemaRef('OAuth2Client')) },
        400: {
          description: 'Invalid metadata (`invalid_client_metadata`, `invalid_redirect_uri`)',
          content: jsonContent(schemaRef('OAuthError')),
        },
        ...refs([
          [401, 'InvalidToken'],
          [404, 'UnsupportedVersion'],
          [413, 'PayloadTooLarge'],
          [422, 'ValidationError'],
        ]),
      },
    },
    delete: {
      operationId: 'oauth2:clients:oauth2:delete_client',
      summary: 'Delete a registered client and revoke its tokens (RFC 7592)',
      tags: [TAG],
      security: [{ registration_access_token: [] }, {}],
      parameters: [clientIdParameter, polarVersionRef],
      responses: {
        204: { description: 'Deleted' },
        ...refs([
          [401, 'InvalidToken'],
          [404, 'UnsupportedVersion'],
        ]),
      },
    },
  },
};
