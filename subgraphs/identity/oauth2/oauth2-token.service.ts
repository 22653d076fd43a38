import type { EntityManager } from '@mikro-orm/postgresql';
import OAuth2Server from '@node-oauth/oauth2-server';
import type { Clock } from '../../../kit/clock.js';
import type { Principal } from '../../../kit/principal.js';
import type { PrincipalCache } from '../../../kit/principal-cache.js';
import { hashToken, hasValidChecksum, prefixOf, TOKEN_PREFIXES } from '../../../kit/tokens.js';
import { memberOrganizationIds } from '../memberships/membership.repository.js';
import { OrganizationRepository } from '../organizations/organization.repository.js';
import { UserRepository } from '../users/user.repository.js';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from './oauth2.constants.js';
import type { OAuthFormRequest, OAuthHttpResult } from './oauth2.contract.js';
import { OAuthError } from './oauth2.errors.js';
import { type IssuedTokens, OAuth2Model } from './oauth2.model.js';
import { OAuth2Client } from './oauth2-client.entity.js';
import { clientCredentialsOf, type OAuth2ClientService } from './oauth2-client.service.js';
import type { OAuth2Token } from './oauth2-token.entity.js';
import { OAuth2TokenRepository } from './oauth2-token.repository.js';
import type { SigningKeys } from './signing-keys.js';

type Ctx = { em: EntityManager; clock: Clock };

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
/** Parameters that must never travel in a URL (RFC 6749 §2.3.1, §3.2; RFC 9700 §4.3.2). */
const SECRET_PARAMS = ['client_secret', 'code', 'code_verifier', 'refresh_token', 'token', 'access_token', 'password'];

/** An OAuth error as a token-endpoint answer: JSON `{error, error_description}`, never cached. */
export function oauthErrorResult(error: OAuthError, extraHeaders: Record<string, string> = {}): OAuthHttpResult {
  return { status: error.status, headers: { ...NO_STORE, ...extraHeaders }, body: error.toJSON() };
}

/**
 * The token endpoint (grants run by `@node-oauth/oauth2-server` on `OAuth2Model`), revocation
 * (RFC 7009), introspection (RFC 7662) and UserInfo (OIDC Core §5.3).
 */
export class OAuth2TokenService {
  constructor(
    private readonly secret: string,
    private readonly cache: PrincipalCache,
    private readonly clients: OAuth2ClientService,
    private readonly keys: SigningKeys,
  ) {}

  async token(ctx: Ctx, issuer: string, request: OAuthFormRequest): Promise<OAuthHttpResult> {
    const basic = !!request.authorization && /^basic\s/i.test(request.authorization);
    const challenge: Record<string, string> = basic ? { 'WWW-Authenticate': 'Basic realm="polar"' } : {};
    try {
      this.checkForm(request);
      const grantType = request.body.grant_type;
      if (!grantType) throw new OAuthError('invalid_request', 'Missing parameter: grant_type.');
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
        throw new OAuthError('unsupported_grant_type', 'Supported grant types: authorization_code, refresh_token.');
      }
      const credentials = clientCredentialsOf(request.authorization, request.body);
      if (!credentials) throw new OAuthError('invalid_client', 'Client authentication failed.', 401);
      if (grantType === 'refresh_token') await this.checkRefreshScope(ctx, request.body);

      const model = new OAuth2Model({
        em: ctx.em,
        clock: ctx.clock,
        secret: this.secret,
        issuer,
        clients: this.clients,
        keys: this.keys,
        credentials,
        grantType,
        revokeFamily: familyId => this.revokeFamily(ctx, familyId),
      });
      const server = new OAuth2Server({
        model,
        accessTokenLifetime: ACCESS_TOKEN_TTL_SECONDS[grantType],
        refreshTokenLifetime: REFRESH_TOKEN_TTL_SECONDS,
        alwaysIssueNewRefreshToken: true,
        // Who must authenticate is the client's registration (OAuth2Model.getClient), not the grant type.
        requireClientAuthentication: { authorization_code: false, refresh_token: false },
        enablePlainPKCE: true,
      } as OAuth2Server.ServerOptions & { enablePlainPKCE: boolean });
      // The library checks the content type with type-is, which wants to see a body length.
      const headers: Record<string, string> = {
        'content-type': request.contentType ?? '',
        'content-length': String(Buffer.byteLength(new URLSearchParams(request.body).toString())),
      };
      if (request.authorization) headers.authorization = request.authorization;
      const libraryRequest = new OAuth2Server.Request({
        method: 'POST',
        headers,
        query: {},
        body: { ...request.body },
      });
      const libraryResponse = new OAuth2Server.Response({});
      const issued = (await server.token(libraryRequest, libraryResponse)) as IssuedTokens;
      const body: Record<string, unknown> = {
        access_token: issued.accessToken,
        token_type: 'Bearer',
        expires_in: issued.lifetime,
      };
      if (issued.refreshToken) body.refresh_token = issued.refreshToken;
      body.scope = issued.scope.join(' ');
      if (issued.id_token) body.id_token = issued.id_token;
      return { status: 200, headers: NO_STORE, body };
    } catch (error) {
      const mapped = toOAuthError(error);
      return oauthErrorResult(mapped, mapped.error === 'invalid_client' && basic ? challenge : {});
    }
  }

  /** RFC 7009. Always 200 `{}` once the client is authenticated, whether or not the token was live. */
  async revoke(ctx: Ctx, request: OAuthFormRequest): Promise<OAuthHttpResult> {
    try {
      this.checkForm(request);
      const client = await this.authenticateClient(ctx, request, true);
      const raw = request.body.token;
      if (!raw) throw new OAuthError('invalid_request', 'Missing parameter: token.');
      const found = await this.findToken(ctx.em, raw);
      if (found && found.row.oauth2ClientId === client.id) {
        const now = ctx.clock.now();
        if (found.type === 'refresh_token') {
          // RFC 7009 §2.1: revoking a refresh token ends the grant, access tokens included.
          await this.revokeFamily(ctx, found.row.familyId);
        } else {
          const both = request.body.token_type_hint !== 'access_token';
          const tokens = new OAuth2TokenRepository(ctx.em);
          await tokens.endAccessToken(found.row.id, now);
          if (both) await tokens.endRefreshToken(found.row.id, now);
          await this.cache.announce(ctx.em, { tokenIds: [found.row.id] });
        }
      }
      return { status: 200, headers: NO_STORE, body: {} };
    } catch (error) {
      return oauthErrorResult(toOAuthError(error));
    }
  }

  /** RFC 7662, for the tokens of the authenticated (confidential) client only. */
  async introspect(ctx: Ctx, issuer: string, request: OAuthFormRequest): Promise<OAuthHttpResult> {
    try {
      this.checkForm(request);
      const client = await this.authenticateClient(ctx, request, false);
      const raw = request.body.token;
      if (!raw) throw new OAuthError('invalid_request', 'Missing parameter: token.');
      const found = await this.findToken(ctx.em, raw);
      const now = ctx.clock.now();
      const inactive = { status: 200, headers: NO_STORE, body: { active: false } };
      if (!found || found.row.oauth2ClientId !== client.id) return inactive;
      const { row, type } = found;
      const live = type === 'access_token' ? row.isAccessLive(now) : row.isRefreshLive(now);
      if (!live) return inactive;
      const organizations =
        row.subType === 'organization' && row.organizationId
          ? [row.organizationId]
          : await memberOrganizationIds(ctx.em, row.userId);
      const expiresAt = type === 'access_token' ? row.accessTokenExpiresAt : row.refreshTokenExpiresAt;
      return {
        status: 200,
        headers: NO_STORE,
        body: {
          active: true,
          client_id: client.clientId,
          token_type: type,
          scope: row.scopes.join(' '),
          sub_type: row.subType,
          sub: row.sub,
          organizations,
          aud: client.clientId,
          iss: issuer,
          exp: expiresAt ? seconds(expiresAt) : undefined,
          iat: seconds(row.createdAt),
        },
      };
    } catch (error) {
      return oauthErrorResult(toOAuthError(error));
    }
  }

  /** OIDC Core §5.3 for an OAuth access token with `openid` (docs/polar/auth.md#oauth-and-oidc-server for the claims). */
  async userinfo(ctx: Ctx, principal: Principal): Promise<OAuthHttpResult> {
    const bearerError = (status: number, error: string, description: string): OAuthHttpResult => ({
      status,
      headers: {
        ...NO_STORE,
        'WWW-Authenticate': `Bearer realm="polar", error="${error}", error_description="${description}"`,
      },
      body: { error, error_description: description },
    });
    if (principal.credential !== 'oauth2_token' || !principal.subjectId) {
      return bearerError(401, 'invalid_token', 'UserInfo needs an OAuth 2.0 access token.');
    }
    if (!principal.scopes.includes('openid'))
      return bearerError(403, 'insufficient_scope', 'The access token was not issued with the openid scope.');
    if (principal.subject === 'organization') {
      const organization = await new OrganizationRepository(ctx.em).slugOf(principal.subjectId);
      return { status: 200, headers: NO_STORE, body: { sub: principal.subjectId, name: organization?.slug ?? null } };
    }
    const body: Record<string, unknown> = { sub: principal.subjectId };
    if (principal.scopes.includes('email')) {
      const user = await new UserRepository(ctx.em).emailClaimsOf(principal.subjectId);
      if (user) {
        body.email = user.email;
        body.email_verified = user.emailVerified;
      }
    }
    return { status: 200, headers: NO_STORE, body };
  }

  /** Revokes every access and refresh token of one grant (a code and all its refreshes). */
  async revokeFamily(ctx: Ctx, familyId: string): Promise<void> {
    const { tokenIds } = await new OAuth2TokenRepository(ctx.em).endFamily(familyId, ctx.clock.now());
    await this.cache.announce(ctx.em, { tokenIds });
  }

  /** Revokes every token issued to a client (the client was deleted, RFC 7592 §2.3). */
  async revokeClientTokens(ctx: Ctx, client: OAuth2Client): Promise<void> {
    const { tokenIds } = await new OAuth2TokenRepository(ctx.em).endIssuedTo(client.id, ctx.clock.now());
    await this.cache.announce(ctx.em, { tokenIds });
  }

  /**
   * The library rotates the refresh token before it compares the requested scope with the granted
   * one; a client asking for too much would burn its token (and trip reuse detection on its next try).
   * Refuse a widening scope before anything is touched.
   */
  private async checkRefreshScope(ctx: Ctx, body: Record<string, string>): Promise<void> {
    if (body.scope === undefined || !body.refresh_token) return;
    const row = await new OAuth2TokenRepository(ctx.em).grantedScopesOfRefreshToken(
      hashToken(body.refresh_token, this.secret),
    );
    if (!row) return;
    const asked = body.scope.split(' ').filter(Boolean);
    if (asked.length === 0 || asked.some(s => !row.scopes.includes(s))) {
      throw new OAuthError('invalid_scope', 'The requested scope exceeds the scope originally granted.');
    }
  }

  private checkForm(request: OAuthFormRequest): void {
    if (!/^application\/x-www-form-urlencoded\b/i.test(request.contentType ?? '')) {
      throw new OAuthError('invalid_request', 'The body must be application/x-www-form-urlencoded.');
    }
    if (request.repeated.length)
      throw new OAuthError('invalid_request', `Parameters must not be repeated: ${request.repeated.join(', ')}.`);
    const inUrl = request.queryKeys.filter(k => SECRET_PARAMS.includes(k));
    if (inUrl.length)
      throw new OAuthError(
        'invalid_request',
        `Credentials must be sent in the body, not the URL: ${inUrl.join(', ')}.`,
      );
  }

  private async authenticateClient(ctx: Ctx, request: OAuthFormRequest, allowPublic: boolean): Promise<OAuth2Client> {
    const credentials = clientCredentialsOf(request.authorization, request.body);
    const client =
      credentials && (allowPublic || credentials.method !== 'none')
        ? await this.clients.authenticate(ctx.em, credentials)
        : null;
    if (!client) throw new OAuthError('invalid_client', 'Client authentication failed.', 401);
    return client;
  }

  private async findToken(
    em: EntityManager,
    raw: string,
  ): Promise<{ row: OAuth2Token; type: 'access_token' | 'refresh_token' } | null> {
    const prefix = prefixOf(raw);
    if (!prefix || !hasValidChecksum(raw, prefix)) return null;
    const hash = hashToken(raw, this.secret);
    const tokens = new OAuth2TokenRepository(em);
    if (prefix === TOKEN_PREFIXES.oauthUserAccessToken || prefix === TOKEN_PREFIXES.oauthOrganizationAccessToken) {
      const row = await tokens.findByAccessTokenHash(hash);
      return row ? { row, type: 'access_token' } : null;
    }
    if (prefix === TOKEN_PREFIXES.oauthUserRefreshToken || prefix === TOKEN_PREFIXES.oauthOrganizationRefreshToken) {
      const row = await tokens.findByRefreshTokenHash(hash);
      return row ? { row, type: 'refresh_token' } : null;
    }
    return null;
  }
}

/** The library's errors (and ours) as an OAuthError; anything else is a server_error (logged by the caller). */
function toOAuthError(error: unknown): OAuthError {
  if (error instanceof OAuthError) return error;
  if (error instanceof OAuth2Server.OAuthError) {
    const name = error.name;
    let code = name;
    // RFC 6749 §5.2: a redirect_uri that differs from the authorization request's is invalid_grant.
    if (name === 'invalid_request' && /redirect_uri/.test(error.message)) code = 'invalid_grant';
    if (name === 'server_error') throw (error as { inner?: unknown }).inner ?? error;
    const status = code === 'invalid_client' ? 401 : 400;
    return new OAuthError(code, error.message, status);
  }
  throw error;
}
