import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  AuthorizationCode,
  AuthorizationCodeModel,
  Client,
  RefreshToken,
  RefreshTokenModel,
  Token,
  User,
} from '@node-oauth/oauth2-server';
import type { Clock } from '../../../kit/clock.js';
import { generateToken, hashToken, hasValidChecksum, TOKEN_PREFIXES } from '../../../kit/tokens.js';
import { UserRepository } from '../users/user.repository.js';
import { ACCESS_TOKEN_TTL_SECONDS, ID_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from './oauth2.constants.js';
import { OAuth2AuthorizationCodeRepository } from './oauth2-authorization-code.repository.js';
import type { OAuth2Client, SubType } from './oauth2-client.entity.js';
import { type ClientCredentials, formDecode, type OAuth2ClientService } from './oauth2-client.service.js';
import { OAuth2Token } from './oauth2-token.entity.js';
import { OAuth2TokenRepository } from './oauth2-token.repository.js';
import { atHash, type SigningKeys } from './signing-keys.js';

/** What travels through the library as its `user`: the subject of the grant and its family. */
export interface GrantSubject extends User {
  familyId: string;
  userId: string;
  subType: SubType;
  /** The organization for `sub_type=organization`. */
  organizationId: string | null;
  authTime: Date;
  nonce: string | null;
  /** The token row a refresh token belongs to (refresh grant only). */
  tokenId?: string;
}

/** What `saveToken` returns to the library, and the token endpoint turns into its JSON body. */
export interface IssuedTokens extends Token {
  accessToken: string;
  refreshToken?: string;
  scope: string[];
  lifetime: number;
  id_token?: string;
}

export interface ModelDependencies {
  em: EntityManager;
  clock: Clock;
  secret: string;
  issuer: string;
  clients: OAuth2ClientService;
  keys: SigningKeys;
  /** The credentials the request carried, as the token endpoint parsed them. */
  credentials: ClientCredentials;
  grantType: 'authorization_code' | 'refresh_token';
  /** Revokes every token of a family (code replay, refresh token reuse). */
  revokeFamily: (familyId: string) => Promise<void>;
}

/**
 * The storage model `@node-oauth/oauth2-server` runs the `authorization_code` and `refresh_token`
 * grants on, one instance per token request. Codes and tokens are looked up by HMAC hash; consuming a
 * code and rotating a refresh token are single conditional UPDATEs, so two concurrent redemptions
 * cannot both succeed; a second presentation revokes the whole family (RFC 9700 §4.14.2, §2.1.1).
 */
export class OAuth2Model implements AuthorizationCodeModel, RefreshTokenModel {
  private client: OAuth2Client | null = null;

  constructor(private readonly deps: ModelDependencies) {}

  /** Client authentication: the method used must be the registered one, the secret must match. */
  async getClient(clientId: string): Promise<Client | null> {
    const { credentials } = this.deps;
    // The library reads HTTP Basic without the form-decoding RFC 6749 §2.3.1 requires; the token
    // endpoint decoded it (clientCredentialsOf), so compare with that.
    if (clientId !== credentials.clientId && formDecode(clientId) !== credentials.clientId) return null;
    const client = await this.deps.clients.authenticate(this.deps.em, credentials);
    if (!client) return null;
    this.client = client;
    return { id: client.id, grants: client.grantTypes, redirectUris: client.redirectUris };
  }

  async getAuthorizationCode(code: string): Promise<AuthorizationCode | null> {
    if (!hasValidChecksum(code, TOKEN_PREFIXES.authorizationCode)) return null;
    const codes = new OAuth2AuthorizationCodeRepository(this.deps.em);
    const row = await codes.findByCodeHash(hashToken(code, this.deps.secret));
    if (!row) return null;
    if (row.consumedAt) {
      // RFC 6749 §4.1.2 / RFC 9700 §4.2.4: a second redemption is refused and what the first issued is revoked.
      await codes.markReplayed(row.id, this.deps.clock.now());
      await this.deps.revokeFamily(row.id);
      return null;
    }
    const subject: GrantSubject = {
      familyId: row.id,
      userId: row.userId,
      subType: row.subType,
      organizationId: row.subType === 'organization' ? row.sub : null,
      authTime: row.authTime,
      nonce: row.nonce,
    };
    return {
      authorizationCode: code,
      expiresAt: this.libraryTime(row.expiresAt),
      redirectUri: row.redirectUri,
      scope: row.scopes,
      client: { id: row.oauth2ClientId, grants: [] },
      user: subject,
      codeChallenge: row.codeChallenge ?? undefined,
      codeChallengeMethod: row.codeChallengeMethod ?? undefined,
      // Kept for revokeAuthorizationCode.
      rowId: row.id,
    } as AuthorizationCode;
  }

  /** Consumes the code: true only for the one request that flips `consumed_at`. */
  async revokeAuthorizationCode(code: AuthorizationCode): Promise<boolean> {
    const id = (code as AuthorizationCode & { rowId: string }).rowId;
    const codes = new OAuth2AuthorizationCodeRepository(this.deps.em);
    const updated = await codes.consume(id, this.deps.clock.now());
    if (updated !== 1) {
      await codes.markReplayed(id, this.deps.clock.now());
      await this.deps.revokeFamily(id);
      return false;
    }
    return true;
  }

  async getRefreshToken(refreshToken: string): Promise<RefreshToken | null> {
    const valid =
      hasValidChecksum(refreshToken, TOKEN_PREFIXES.oauthUserRefreshToken) ||
      hasValidChecksum(refreshToken, TOKEN_PREFIXES.oauthOrganizationRefreshToken);
    if (!valid) return null;
    const row = await new OAuth2TokenRepository(this.deps.em).findByRefreshTokenHash(
      hashToken(refreshToken, this.deps.secret),
    );
    if (!row) return null;
    if (row.refreshTokenRevokedAt) {
      // A rotated (or revoked) refresh token came back: someone holds a copy. End the whole grant.
      await this.deps.revokeFamily(row.familyId);
      return null;
    }
    const subject: GrantSubject = {
      familyId: row.familyId,
      userId: row.userId,
      subType: row.subType,
      organizationId: row.organizationId,
      authTime: row.authTime,
      nonce: null,
      tokenId: row.id,
    };
    return {
      refreshToken,
      refreshTokenExpiresAt: row.refreshTokenExpiresAt ? this.libraryTime(row.refreshTokenExpiresAt) : undefined,
      scope: row.scopes,
      client: { id: row.oauth2ClientId, grants: [] },
      user: subject,
    };
  }

  /** Rotation: marks the presented refresh token used; false (→ invalid_grant) if someone else did first. */
  async revokeToken(token: RefreshToken | Token): Promise<boolean> {
    const subject = token.user as GrantSubject;
    if (!subject.tokenId) return false;
    const updated = await new OAuth2TokenRepository(this.deps.em).endRefreshToken(
      subject.tokenId,
      this.deps.clock.now(),
    );
    if (updated !== 1) {
      await this.deps.revokeFamily(subject.familyId);
      return false;
    }
    return true;
  }

  /** Not used: codes are issued by OAuth2AuthorizationService (the consent pages), never by the library. */
  async saveAuthorizationCode(): Promise<AuthorizationCode> {
    throw new Error('authorization codes are issued by OAuth2AuthorizationService');
  }

  /** Not used: bearer tokens are resolved by TokenPrincipalResolver before any route runs. */
  async getAccessToken(): Promise<Token | null> {
    return null;
  }

  async validateScope(_user: User, _client: Client, scope?: string[]): Promise<string[] | false> {
    // The scope was checked against the client at the authorization endpoint and bound to the code.
    return scope?.length ? scope : false;
  }

  async generateAccessToken(_client: Client, user: User): Promise<string> {
    const subject = user as GrantSubject;
    return generateToken(
      subject.subType === 'organization'
        ? TOKEN_PREFIXES.oauthOrganizationAccessToken
        : TOKEN_PREFIXES.oauthUserAccessToken,
    );
  }

  async generateRefreshToken(_client: Client, user: User): Promise<string> {
    const subject = user as GrantSubject;
    return generateToken(
      subject.subType === 'organization'
        ? TOKEN_PREFIXES.oauthOrganizationRefreshToken
        : TOKEN_PREFIXES.oauthUserRefreshToken,
    );
  }

  async saveToken(token: Token, _client: Client, user: User): Promise<IssuedTokens> {
    const { em, clock, secret } = this.deps;
    const subject = user as GrantSubject;
    const client = this.client!;
    const now = clock.now();
    const lifetime = ACCESS_TOKEN_TTL_SECONDS[this.deps.grantType];
    const scopes = (token.scope ?? []) as string[];
    const refreshToken = client.grantTypes.includes('refresh_token') ? token.refreshToken : undefined;
    const row = em.create(OAuth2Token, {
      familyId: subject.familyId,
      oauth2ClientId: client.id,
      subType: subject.subType,
      userId: subject.userId,
      organizationId: subject.organizationId,
      accessTokenHash: hashToken(token.accessToken, secret),
      refreshTokenHash: refreshToken ? hashToken(refreshToken, secret) : null,
      scopes,
      accessTokenExpiresAt: new Date(now.getTime() + lifetime * 1000),
      refreshTokenExpiresAt: refreshToken ? new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000) : null,
      authTime: subject.authTime,
      createdAt: now,
    } as OAuth2Token);
    await em.flush();

    if (this.deps.grantType === 'authorization_code') {
      // A replay that raced this redemption revoked the family before our row existed: honour it.
      if (await new OAuth2AuthorizationCodeRepository(em.fork()).wasReplayed(subject.familyId))
        await this.deps.revokeFamily(subject.familyId);
    }

    const issued: IssuedTokens = {
      accessToken: token.accessToken,
      accessTokenExpiresAt: row.accessTokenExpiresAt,
      refreshToken,
      refreshTokenExpiresAt: row.refreshTokenExpiresAt ?? undefined,
      scope: scopes,
      client: { id: client.id, grants: client.grantTypes },
      user,
      lifetime,
    };
    if (this.deps.grantType === 'authorization_code' && scopes.includes('openid')) {
      issued.id_token = await this.idToken(client, subject, scopes, token.accessToken, now);
    }
    return issued;
  }

  /** OIDC Core §2 / §3.1.3.6; docs/polar/auth.md#oauth-and-oidc-server. */
  private async idToken(
    client: OAuth2Client,
    subject: GrantSubject,
    scopes: string[],
    accessToken: string,
    now: Date,
  ): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    const claims: Record<string, unknown> = {
      iss: this.deps.issuer,
      sub: subject.subType === 'organization' ? subject.organizationId : subject.userId,
      aud: client.clientId,
      exp: iat + ID_TOKEN_TTL_SECONDS,
      iat,
      auth_time: Math.floor(subject.authTime.getTime() / 1000),
      at_hash: atHash(accessToken),
    };
    if (subject.nonce !== null) claims.nonce = subject.nonce;
    if (scopes.includes('email') && subject.subType === 'user') {
      const user = await new UserRepository(this.deps.em).emailClaimsOf(subject.userId);
      if (user) {
        claims.email = user.email;
        claims.email_verified = user.emailVerified;
      }
    }
    return this.deps.keys.sign({ em: this.deps.em, clock: this.deps.clock }, claims);
  }

  /**
   * The library compares expiry with the wall clock; ours comes from the injected clock. Shift the
   * stored expiry by the difference so both agree.
   */
  private libraryTime(at: Date): Date {
    return new Date(Date.now() + (at.getTime() - this.deps.clock.now().getTime()));
  }
}
