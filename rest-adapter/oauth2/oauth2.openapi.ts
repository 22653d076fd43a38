import {
  AUTH_METHODS,
  CODE_CHALLENGE_METHODS,
  GRANT_TYPES,
  PROMPT_VALUES,
  SUB_TYPES,
} from '../../subgraphs/identity/contract.js';
import { type Json, jsonContent, polarVersionRef, refs, schemaRef } from '../openapi/wire-schemas.js';
import { providerMetadata } from './router.js';

/**
 * The OAuth 2.0 / OpenID Connect endpoints of router.ts as OpenAPI paths and schemas, written by hand
 * (the router has no route table): test/contract/openapi-coverage.test.ts fails when this and the
 * routes Express serves differ. Wire shapes: polar-api.md §3.14 and §5.4, and the RFCs named below.
 * The consent form (`POST /oauth2/consent`) is a step of the authorization page, not an endpoint.
 */

const TAG = 'oauth2';
const url = { type: 'string', format: 'uri', maxLength: 2083 } as const;
const nullableUrl = { type: ['string', 'null'], format: 'uri', minLength: 1, maxLength: 2083 } as const;
const space = (values: readonly string[]) => values.map(v => `\`${v}\``).join(', ');
const form = (schema: string): Json => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: schemaRef(schema) } },
});
const noStore = { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } };

/** Client authentication at the token, revocation and introspection endpoints (RFC 6749 §2.3). */
const clientAuthentication = [{ client_secret_basic: [] }, {}];
const clientFields: Record<string, Json> = {
  client_id: { type: 'string', description: 'With `client_secret_post` or a public client (`none`)' },
  client_secret: { type: 'string', description: 'With `client_secret_post`' },
};

const clientConfiguration: Record<string, Json> = {
  redirect_uris: {
    type: 'array',
    minItems: 1,
    items: url,
    description: '`https`, or `http` on a loopback address; no fragment, user info or wildcard',
  },
  token_endpoint_auth_method: { type: 'string', enum: [...AUTH_METHODS], default: 'client_secret_post' },
  grant_types: { type: 'array', items: { type: 'string', enum: [...GRANT_TYPES] }, default: [...GRANT_TYPES] },
  response_types: { type: 'array', items: { type: 'string', enum: ['code'] }, default: ['code'] },
  scope: {
    type: 'string',
    description: 'Space-separated scopes the client may ask for; default: every supported scope',
  },
  client_name: { type: 'string', minLength: 1, maxLength: 255 },
  client_uri: nullableUrl,
  logo_uri: nullableUrl,
  tos_uri: nullableUrl,
  policy_uri: nullableUrl,
  default_sub_type: { type: 'string', enum: [...SUB_TYPES], default: 'user' },
};

/** The discovery document's members, typed from what `providerMetadata` returns. */
function providerMetadataSchema(): Json {
  const properties: Record<string, Json> = {};
  for (const [key, value] of Object.entries(providerMetadata('https://issuer.example'))) {
    if (Array.isArray(value)) properties[key] = { type: 'array', items: { type: 'string' } };
    else if (typeof value === 'boolean') properties[key] = { type: 'boolean' };
    else
      properties[key] =
        key === 'issuer' || key.endsWith('_endpoint') || key.endsWith('_uri') ? url : { type: 'string' };
  }
  return {
    type: 'object',
    description: 'OpenID Provider metadata (OpenID Connect Discovery 1.0 §3, RFC 8414 §2)',
    required: Object.keys(properties),
    properties,
  };
}

export const oauth2Schemas: Record<string, Json> = {
  OAuth2ClientConfiguration: {
    type: 'object',
    description: 'Client metadata (RFC 7591 §2). Unknown members are ignored.',
    required: ['redirect_uris', 'client_name'],
    properties: clientConfiguration,
  },
  OAuth2ClientConfigurationUpdate: {
    type: 'object',
    description: 'The whole client metadata, replacing the registered one (RFC 7592 §2.2).',
    required: ['redirect_uris', 'client_name', 'client_id'],
    properties: {
      ...clientConfiguration,
      client_id: { type: 'string', description: 'The client being updated' },
      client_secret: { type: 'string', description: 'If sent, must be the current secret' },
    },
  },
  OAuth2Client: {
    type: 'object',
    description:
      'A registered client (RFC 7591 §3.2.1). `client_secret` is shown once, at registration (or when a public ' +
      'client becomes confidential); `registration_access_token` only at registration.',
    required: [
      'redirect_uris',
      'token_endpoint_auth_method',
      'grant_types',
      'response_types',
      'scope',
      'client_name',
      'default_sub_type',
      'created_at',
      'modified_at',
      'client_id',
      'client_id_issued_at',
      'registration_client_uri',
    ],
    properties: {
      ...clientConfiguration,
      client_uri: url,
      logo_uri: url,
      tos_uri: url,
      policy_uri: url,
      created_at: { type: 'string', format: 'date-time' },
      modified_at: { type: ['string', 'null'], format: 'date-time' },
      client_id: { type: 'string' },
      client_secret: { type: 'string' },
      client_id_issued_at: { type: 'integer', description: 'Unix seconds' },
      client_secret_expires_at: { type: 'integer', const: 0, description: 'Confidential clients: never expires' },
      registration_client_uri: url,
      registration_access_token: { type: 'string' },
    },
  },
  TokenRequest: {
    type: 'object',
    description:
      '`authorization_code` (RFC 6749 §4.1.3, PKCE RFC 7636 §4.5): `code`, `redirect_uri`, `code_verifier`. ' +
      '`refresh_token` (RFC 6749 §6): `refresh_token`, optional narrower `scope`.',
    required: ['grant_type'],
    properties: {
      grant_type: { type: 'string', enum: [...GRANT_TYPES] },
      code: { type: 'string' },
      redirect_uri: url,
      code_verifier: { type: 'string', minLength: 43, maxLength: 128 },
      refresh_token: { type: 'string' },
      scope: { type: 'string' },
      ...clientFields,
    },
  },
  TokenResponse: {
    type: 'object',
    description: 'RFC 6749 §5.1; `id_token` when `openid` was granted (authorization code grant).',
    required: ['access_token', 'token_type', 'expires_in', 'scope'],
    properties: {
      access_token: { type: 'string' },
      token_type: { type: 'string', const: 'Bearer' },
      expires_in: { type: 'integer', description: 'Seconds' },
      refresh_token: { type: 'string' },
      scope: { type: 'string' },
      id_token: { type: 'string', description: 'RS256 JWT, keys at /.well-known/jwks.json' },
    },
  },
  RevokeTokenRequest: {
    type: 'object',
    description: 'RFC 7009 §2.1. Revoking a refresh token ends the grant, its access tokens included.',
    required: ['token'],
    properties: {
      token: { type: 'string' },
      token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
      ...clientFields,
    },
  },
  RevokeTokenResponse: { type: 'object', description: 'Always `{}`, whether or not the token was live.' },
  IntrospectTokenRequest: {
    type: 'object',
    description: 'RFC 7662 §2.1, for confidential clients and their own tokens.',
    required: ['token'],
    properties: {
      token: { type: 'string' },
      token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
      ...clientFields,
    },
  },
  IntrospectTokenResponse: {
    type: 'object',
    description: 'RFC 7662 §2.2: `{"active": false}` alone for a token that is unknown, dead or of another client.',
    required: ['active'],
    properties: {
      active: { type: 'boolean' },
      client_id: { type: 'string' },
      token_type: { type: 'string', enum: ['access_token', 'refresh_token'] },
      scope: { type: 'string' },
      sub_type: { type: 'string', enum: [...SUB_TYPES] },
      sub: { type: 'string' },
      organizations: { type: 'array', items: { type: 'string', format: 'uuid' } },
      aud: { type: 'string' },
      iss: url,
      exp: { type: 'integer' },
      iat: { type: 'integer' },
    },
  },
  UserInfo: {
    type: 'object',
    description:
      'OIDC Core §5.3. A user: `sub`, plus `email` and `email_verified` with the `email` scope. An organization: ' +
      '`sub` and `name` (its slug).',
    required: ['sub'],
    properties: {
      sub: { type: 'string' },
      name: { type: ['string', 'null'] },
      email: { type: 'string', format: 'email' },
      email_verified: { type: 'boolean' },
    },
  },
  OpenIDConfiguration: providerMetadataSchema(),
  JSONWebKeySet: {
    type: 'object',
    description: 'RFC 7517 §5: the public keys that sign id_tokens, retired ones included for a while.',
    required: ['keys'],
    properties: {
      keys: {
        type: 'array',
        items: {
          type: 'object',
          required: ['kty', 'kid', 'alg', 'use', 'n', 'e'],
          properties: {
            kty: { type: 'string', const: 'RSA' },
            kid: { type: 'string' },
            alg: { type: 'string', const: 'RS256' },
            use: { type: 'string', const: 'sig' },
            n: { type: 'string' },
            e: { type: 'string' },
          },
        },
      },
    },
  },
};

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
