import type { EntityManager } from '@mikro-orm/postgresql';
import { OAuth2Token } from './oauth2-token.entity.js';

/** What ending a grant's (or a client's) tokens did. */
export interface EndedTokens {
  /** Every token row of the grant or client, ended now or before: each process drops them from its cache. */
  tokenIds: string[];
  /** How many access tokens this call ended (0 when a concurrent call got there first). */
  accessEnded: number;
  /** How many refresh tokens this call ended. */
  refreshEnded: number;
}

/**
 * OAuth access and refresh tokens, found by the HMAC of the raw token. Ending one is a conditional
 * UPDATE (`… and revoked_at is null`), so of two concurrent calls exactly one ends it: refresh token
 * rotation and reuse detection rely on that.
 */
export class OAuth2TokenRepository {
  constructor(private readonly em: EntityManager) {}

  /** Whatever its state: the caller decides with `isAccessLive` (principal resolution, introspection, leaks). */
  findByAccessTokenHash(accessTokenHash: string): Promise<OAuth2Token | null> {
    return this.em.findOne(OAuth2Token, { accessTokenHash });
  }

  /** Whatever its state: a revoked refresh token coming back is reuse (OAuth2Model.getRefreshToken). */
  findByRefreshTokenHash(refreshTokenHash: string): Promise<OAuth2Token | null> {
    return this.em.findOne(OAuth2Token, { refreshTokenHash });
  }

  /** The scopes granted to a refresh token, to refuse a widening refresh before the token is rotated. */
  grantedScopesOfRefreshToken(refreshTokenHash: string): Promise<Pick<OAuth2Token, 'scopes'> | null> {
    return this.em.findOne(OAuth2Token, { refreshTokenHash }, { fields: ['scopes'] });
  }

  /** Ends one row's access token if it is live; the number ended (0 or 1). */
  endAccessToken(id: string, now: Date): Promise<number> {
    return this.em.nativeUpdate(OAuth2Token, { id, accessTokenRevokedAt: null }, { accessTokenRevokedAt: now });
  }

  /** Ends one row's refresh token if it is live (rotation, revocation); the number ended (0 or 1). */
  endRefreshToken(id: string, now: Date): Promise<number> {
    return this.em.nativeUpdate(OAuth2Token, { id, refreshTokenRevokedAt: null }, { refreshTokenRevokedAt: now });
  }

  /** Ends every access and refresh token of one grant (a code and all its refreshes). */
  endFamily(familyId: string, now: Date): Promise<EndedTokens> {
    return this.endWhere({ familyId }, now);
  }

  /** Ends every token issued to a client (the client was deleted, RFC 7592 §2.3). */
  endIssuedTo(oauth2ClientId: string, now: Date): Promise<EndedTokens> {
    return this.endWhere({ oauth2ClientId }, now);
  }

  private async endWhere(where: { familyId: string } | { oauth2ClientId: string }, now: Date): Promise<EndedTokens> {
    const rows = await this.em.find(OAuth2Token, where, { fields: ['id'] });
    const accessEnded = await this.em.nativeUpdate(
      OAuth2Token,
      { ...where, accessTokenRevokedAt: null },
      { accessTokenRevokedAt: now },
    );
    const refreshEnded = await this.em.nativeUpdate(
      OAuth2Token,
      { ...where, refreshTokenRevokedAt: null },
      { refreshTokenRevokedAt: now },
    );
    return { tokenIds: rows.map(r => r.id), accessEnded, refreshEnded };
  }
}
