/**
 * The error bodies the service writes, as OpenAPI components: Polar's `{error, detail}` and 422 shapes
 * (docs/polar/errors.md, written by rest-adapter/v1/wire-errors.ts), OAuth's `{error, error_description}`
 * (RFC 6749 §5.2, RFC 6750 §3.1, RFC 7591 §3.2.2) and FastAPI's `{detail}` for routing failures
 * (app.ts). Operations refer to the named responses below instead of repeating them.
 */

export type Json = Record<string, unknown>;

export const schemaRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: ErrorResponseName): Json => ({ $ref: `#/components/responses/${name}` });
export const jsonContent = (schema: Json): Json => ({ 'application/json': { schema } });

export const errorSchemas: Record<string, Json> = {
  Error: {
    type: 'object',
    description: 'A named error: `error` is its class name (ResourceNotFound, NotPermitted, Unauthorized, …).',
    required: ['error', 'detail'],
    properties: { error: { type: 'string' }, detail: { type: 'string' } },
  },
  HTTPValidationError: {
    type: 'object',
    description: 'Invalid input: `error` is RequestValidationError (shape) or PolarRequestValidationError (meaning).',
    required: ['detail'],
    properties: {
      error: { type: 'string' },
      detail: {
        type: 'array',
        items: {
          type: 'object',
          required: ['type', 'loc', 'msg'],
          properties: {
            type: { type: 'string' },
            loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
            msg: { type: 'string' },
            input: {},
            ctx: { type: 'object' },
          },
        },
      },
    },
  },
  OAuthError: {
    type: 'object',
    description:
      'An OAuth 2.0 error: invalid_request, invalid_client, invalid_grant, unsupported_grant_type, invalid_scope, ' +
      'invalid_token, insufficient_scope, invalid_client_metadata, invalid_redirect_uri, server_error.',
    required: ['error', 'error_description'],
    properties: { error: { type: 'string' }, error_description: { type: 'string' } },
  },
  RoutingError: {
    type: 'object',
    description: 'Unknown path or Polar-Version (404), wrong method (405), body over 1 MB (413).',
    required: ['detail'],
    properties: { detail: { type: 'string' } },
  },
};

const WWW_AUTHENTICATE = {
  'WWW-Authenticate': { description: 'The Bearer challenge (RFC 6750 §3).', schema: { type: 'string' } },
};

/** Reusable responses: `components.responses`. */
export const errorResponses = {
  BadRequest: { description: 'Bad request (BadRequest)', content: jsonContent(schemaRef('Error')) },
  Unauthorized: {
    description:
      'No usable credential for this operation (`{"error":"Unauthorized"}`), or a bearer token that is malformed, ' +
      'unknown, expired or revoked (`{"error":"invalid_token"}`)',
    headers: WWW_AUTHENTICATE,
    content: jsonContent({ anyOf: [schemaRef('Error'), schemaRef('OAuthError')] }),
  },
  PaymentFailed: { description: 'The payment failed (PaymentFailed)', content: jsonContent(schemaRef('Error')) },
  Forbidden: {
    description:
      'The token has none of the scopes (`{"error":"insufficient_scope"}`), the caller may not do this ' +
      '(NotPermitted, AlreadyCanceledSubscription, …), or it cannot act for the organization its ' +
      '`Polar-Organization` header names (NotPermitted)',
    content: jsonContent({ anyOf: [schemaRef('Error'), schemaRef('OAuthError')] }),
  },
  NotFound: {
    description:
      'Unknown id, or one of another organization (ResourceNotFound); or an unsupported Polar-Version (`{"detail":"Not Found"}`)',
    content: jsonContent({ anyOf: [schemaRef('Error'), schemaRef('RoutingError')] }),
  },
  UnsupportedVersion: {
    description: 'Unsupported Polar-Version header',
    content: jsonContent(schemaRef('RoutingError')),
  },
  Conflict: { description: 'Conflict (SubscriptionLocked, …)', content: jsonContent(schemaRef('Error')) },
  Gone: { description: 'No longer available (ResourceUnavailable)', content: jsonContent(schemaRef('Error')) },
  PreconditionFailed: {
    description: 'The resource is not in the state the operation needs (OrderNotDraft)',
    content: jsonContent(schemaRef('Error')),
  },
  PayloadTooLarge: { description: 'The body is larger than 1 MB', content: jsonContent(schemaRef('RoutingError')) },
  ServiceUnavailable: {
    description:
      'The service is busy: a database wait ran out (a connection, a lock or a statement; ServiceUnavailable). ' +
      'Try again after `Retry-After` seconds',
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } },
    content: jsonContent(schemaRef('Error')),
  },
  ValidationError: {
    description: 'Invalid path, query or body (or a body that is not JSON)',
    content: jsonContent(schemaRef('HTTPValidationError')),
  },
  OAuthBadRequest: {
    description: 'The request is invalid (OAuth error code in `error`)',
    content: jsonContent(schemaRef('OAuthError')),
  },
  InvalidToken: {
    description: 'The bearer token is malformed, unknown, expired or revoked (`invalid_token`)',
    headers: WWW_AUTHENTICATE,
    content: jsonContent(schemaRef('OAuthError')),
  },
  InsufficientScope: {
    description: 'The access token lacks the scope (`insufficient_scope`)',
    headers: WWW_AUTHENTICATE,
    content: jsonContent(schemaRef('OAuthError')),
  },
  OAuthUnauthorized: {
    description: 'Client authentication failed (`invalid_client`), or a bearer token is not valid (`invalid_token`)',
    headers: WWW_AUTHENTICATE,
    content: jsonContent(schemaRef('OAuthError')),
  },
} satisfies Record<string, Json>;

export type ErrorResponseName = keyof typeof errorResponses;

/** The named response of each error status a route declares (Route.errors). */
export const RESPONSE_OF_STATUS: Record<number, ErrorResponseName> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  402: 'PaymentFailed',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  410: 'Gone',
  412: 'PreconditionFailed',
  413: 'PayloadTooLarge',
  422: 'ValidationError',
  503: 'ServiceUnavailable',
};

/** `responses` entries `{status: $ref}` for the given statuses and names. */
export function refs(entries: [number, ErrorResponseName][]): Record<string, Json> {
  return Object.fromEntries(entries.map(([status, name]) => [String(status), responseRef(name)]));
}

/** The `Polar-Version` request header every API operation reads (app.ts `apiVersion`). */
export const polarVersionRef: Json = { $ref: '#/components/parameters/PolarVersion' };

export function polarVersionParameter(versions: readonly string[], defaultVersion: string): Json {
  return {
    name: 'Polar-Version',
    in: 'header',
    required: false,
    description: `API version; absent means ${defaultVersion}. Any other value answers 404 \`{"detail":"Not Found"}\`. Echoed in the response.`,
    schema: { type: 'string', enum: [...versions], default: defaultVersion },
  };
}

/** The `Polar-Organization` request header (app.ts `resolvePrincipal`, docs/principals.md#polar-organization). */
export const polarOrganizationRef: Json = { $ref: '#/components/parameters/PolarOrganization' };

export const polarOrganizationParameter: Json = {
  name: 'Polar-Organization',
  in: 'header',
  required: false,
  description:
    'Acts for this one organization. With a personal access token, an OAuth token or a web session: lists, ' +
    'reads and creates see that organization only, and a create without `organization_id` lands in it (naming ' +
    'another is a 422 at `organization_id`). A caller that is not a member of it, or whose OAuth grant does not ' +
    'cover it, gets 403 NotPermitted. An organization access token may name its own organization only (another ' +
    'is 403 NotPermitted). A value that is not a UUID is a 422 at `header.polar-organization`. Customer sessions ' +
    'and anonymous callers: ignored.',
  schema: { type: 'string', format: 'uuid' },
};
