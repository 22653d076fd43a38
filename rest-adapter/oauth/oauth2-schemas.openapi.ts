import { AUTH_METHODS, GRANT_TYPES, SUB_TYPES } from '../../subgraphs/identity/contract.js';
import { type Json, schemaRef } from '../v1/openapi/wire-schemas.js';
import { providerMetadata } from './discovery.js';

/**
 * The component schemas of the OAuth 2.0 / OIDC endpoints (oauth2.openapi.ts), and the pieces of
 * schema the paths (oauth2-paths.openapi.ts) share with them.
 */
export const TAG = 'oauth2';
export const url = { type: 'string', format: 'uri', maxLength: 2083 } as const;
export const nullableUrl = { type: ['string', 'null'], format: 'uri', minLength: 1, maxLength: 2083 } as const;
export const space = (values: readonly string[]) => values.map(v => `\`${v}\``).join(', ');
export const form = (schema: string): Json => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: schemaRef(schema) } },
});
export const noStore = { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } };

/** Client authentication at the token, revocation and introspection endpoints (RFC 6749 §2.3). */
export const clientAuthentication = [{ client_secret_basic: [] }, {}];
export const clientFields: Record<string, Json> = {
  client_id: { type: 'string', description: 'With `client_secret_post` or a public client (`none`)' },
  client_secret: { type: 'string', description: 'With `client_secret_post`' },
};

export const clientConfiguration: Record<string, Json> = {
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
export function providerMetadataSchema(): Json {
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
