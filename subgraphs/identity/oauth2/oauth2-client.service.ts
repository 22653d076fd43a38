import { timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import { bearerOf } from '../../../kit/principal.js';
import { generateToken, hashToken, hasValidChecksum, TOKEN_PREFIXES } from '../../../kit/tokens.js';
import { OAuth2Client, type TokenEndpointAuthMethod } from './oauth2-client.entity.js';
import { OAuth2ClientRepository } from './oauth2-client.repository.js';
import { type ClientMetadata, parseClientMetadata } from './oauth2-client.validation.js';
import type { ClientManagementCaller } from './oauth2.contract.js';
import { invalidClientMetadata, OAuthError } from './oauth2.errors.js';

type Ctx = { em: EntityManager; clock: Clock };

export interface ClientCredentials {
  clientId: string;
  clientSecret?: string;
  /** How the client authenticated at the token, revocation or introspection endpoint. */
  method: TokenEndpointAuthMethod;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Registered clients: RFC 7591 registration, RFC 7592 read/update/delete with the registration access
 * token (or by the web user who registered it), and client authentication for the endpoints.
 */
export class OAuth2ClientService {
  constructor(private readonly secret: string) {}

  async register(
    ctx: Ctx,
    body: unknown,
    ownerUserId: string | null,
  ): Promise<{ client: OAuth2Client; clientSecret: string | null; registrationToken: string }> {
    const metadata = parseClientMetadata(body);
    const clientSecret =
      metadata.tokenEndpointAuthMethod === 'none' ? null : generateToken(TOKEN_PREFIXES.clientSecret);
    const registrationToken = generateToken(TOKEN_PREFIXES.clientRegistrationToken);
    const client = ctx.em.create(OAuth2Client, {
      ...metadata,
      clientId: generateToken(TOKEN_PREFIXES.clientId),
      clientSecretHash: clientSecret ? hashToken(clientSecret, this.secret) : null,
      registrationTokenHash: hashToken(registrationToken, this.secret),
      ownerUserId,
      createdAt: ctx.clock.now(),
    } as OAuth2Client);
    await ctx.em.flush();
    return { client, clientSecret, registrationToken };
  }

  findLive(em: EntityManager, clientId: string): Promise<OAuth2Client | null> {
    if (typeof clientId !== 'string' || !hasValidChecksum(clientId, TOKEN_PREFIXES.clientId))
      return Promise.resolve(null);
    return new OAuth2ClientRepository(em).findLiveByClientId(clientId);
  }

  /**
   * RFC 7592 §2: the registration access token of this client, or the signed-in web user who
   * registered it. Anything else (unknown client included) is 401 `invalid_token`.
   */
  async findManageable(ctx: Ctx, clientId: string, caller: ClientManagementCaller): Promise<OAuth2Client> {
    const client = await this.findLive(ctx.em, clientId);
    const bearer = caller.bearer;
    if (
      client &&
      bearer &&
      hasValidChecksum(bearer, TOKEN_PREFIXES.clientRegistrationToken) &&
      this.hashEquals(hashToken(bearer, this.secret), client.registrationTokenHash)
    ) {
      return client;
    }
    if (client && !bearer && caller.userId && client.ownerUserId === caller.userId) return client;
    throw new OAuthError(
      'invalid_token',
      'The registration access token is missing, invalid, or not for this client.',
      401,
    );
  }

  /** RFC 7592 §2.2: the body replaces the metadata; it must name the client; a sent secret must be the current one. */
  async update(
    ctx: Ctx,
    client: OAuth2Client,
    body: unknown,
  ): Promise<{ client: OAuth2Client; clientSecret: string | null }> {
    const given = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    if (given.client_id !== client.clientId)
      throw invalidClientMetadata('client_id must be given and equal the client being updated.');
    if (given.client_secret !== undefined) {
      if (
        typeof given.client_secret !== 'string' ||
        !client.clientSecretHash ||
        !this.hashEquals(hashToken(given.client_secret, this.secret), client.clientSecretHash)
      ) {
        throw invalidClientMetadata('client_secret does not match the current client secret.');
      }
    }
    const metadata: ClientMetadata = parseClientMetadata(body);
    let clientSecret: string | null = null;
    if (metadata.tokenEndpointAuthMethod === 'none') {
      client.clientSecretHash = null;
    } else if (!client.clientSecretHash) {
      // Turning a public client into a confidential one: it needs a secret, shown this once.
      clientSecret = generateToken(TOKEN_PREFIXES.clientSecret);
      client.clientSecretHash = hashToken(clientSecret, this.secret);
    }
    Object.assign(client, metadata, { modifiedAt: ctx.clock.now() });
    await ctx.em.flush();
    return { client, clientSecret };
  }

  async softDelete(ctx: Ctx, client: OAuth2Client): Promise<void> {
    client.deletedAt = ctx.clock.now();
    await ctx.em.flush();
  }

  /**
   * Client authentication (RFC 6749 §2.3): the method used must be the one the client registered, and
   * a confidential client's secret must match. Null for any failure (the caller answers invalid_client).
   */
  async authenticate(em: EntityManager, credentials: ClientCredentials): Promise<OAuth2Client | null> {
    const client = await this.findLive(em, credentials.clientId);
    if (!client) return null;
    if (client.tokenEndpointAuthMethod !== credentials.method) return null;
    if (client.isPublic) return credentials.clientSecret ? null : client;
    if (!credentials.clientSecret || !client.clientSecretHash) return null;
    return this.hashEquals(hashToken(credentials.clientSecret, this.secret), client.clientSecretHash) ? client : null;
  }

  /** The registration response (RFC 7591 §3.2.1; docs/polar/auth.md#oauth-and-oidc-server). Unset optional members are omitted. */
  toResponse(
    issuer: string,
    client: OAuth2Client,
    extras: { clientSecret?: string | null; registrationToken?: string } = {},
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: client.tokenEndpointAuthMethod,
      grant_types: client.grantTypes,
      response_types: client.responseTypes,
      scope: client.scopes.join(' '),
      client_name: client.clientName,
    };
    if (client.clientUri) out.client_uri = client.clientUri;
    if (client.logoUri) out.logo_uri = client.logoUri;
    if (client.tosUri) out.tos_uri = client.tosUri;
    if (client.policyUri) out.policy_uri = client.policyUri;
    out.default_sub_type = client.defaultSubType;
    out.application_type = client.applicationType;
    out.created_at = client.createdAt.toISOString();
    out.modified_at = client.modifiedAt?.toISOString() ?? null;
    out.client_id = client.clientId;
    if (extras.clientSecret) out.client_secret = extras.clientSecret;
    out.client_id_issued_at = seconds(client.createdAt);
    if (!client.isPublic) out.client_secret_expires_at = 0;
    out.registration_client_uri = `${issuer}/v1/oauth2/register/${client.clientId}`;
    if (extras.registrationToken) out.registration_access_token = extras.registrationToken;
    return out;
  }

  private hashEquals(a: string, b: string): boolean {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  }
}

/**
 * Reads the client's credentials from a form request: HTTP Basic (RFC 6749 §2.3.1, both parts
 * form-urlencoded) or `client_id`/`client_secret` in the body; `client_id` alone is a public client.
 * Using two methods at once is an `invalid_request`.
 */
export function clientCredentialsOf(
  authorization: string | undefined,
  body: Record<string, string>,
): ClientCredentials | null {
  if (authorization && /^basic\s/i.test(authorization)) {
    if (body.client_secret !== undefined)
      throw new OAuthError(
        'invalid_request',
        'Use one client authentication method, not Basic and client_secret together.',
      );
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    const clientId = formDecode(decoded.slice(0, colon));
    const clientSecret = formDecode(decoded.slice(colon + 1));
    if (clientId === null || clientSecret === null) return null;
    if (body.client_id !== undefined && body.client_id !== clientId)
      throw new OAuthError('invalid_request', 'client_id in the body differs from the authenticated client.');
    return { clientId, clientSecret, method: 'client_secret_basic' };
  }
  if (authorization && bearerOf(authorization) !== undefined) return null;
  if (!body.client_id) return null;
  if (body.client_secret !== undefined)
    return { clientId: body.client_id, clientSecret: body.client_secret, method: 'client_secret_post' };
  return { clientId: body.client_id, method: 'none' };
}

/** `application/x-www-form-urlencoded` decoding of one value (`+` is a space); null when malformed. */
export function formDecode(value: string): string | null {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}
