import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../../kit/principal.js';
import { TOKEN_PREFIXES } from '../../../kit/tokens.js';
import { OAuth2ClientRepository } from './oauth2-client.repository.js';
import { OAuth2TokenRepository } from './oauth2-token.repository.js';

/**
 * `polar_at_u_…` → the user who consented (User principal); `polar_at_o_…` → the organization chosen
 * on the consent page (Organization principal), while that person is still one of its members.
 * Scopes are the token's; `clientId` is the client it was issued to. Null when no live token matches.
 */
export async function resolveOAuth2AccessToken(
  em: EntityManager,
  prefix: string,
  tokenHash: string,
  now: Date,
  userFacts: (userId: string) => Promise<{ organizationIds: string[]; email: string | null }>,
): Promise<{ principal: Principal; expiresAt: Date } | null> {
  const row = await new OAuth2TokenRepository(em).findByAccessTokenHash(tokenHash);
  if (!row?.isAccessLive(now)) return null;
  const organizationToken = prefix === TOKEN_PREFIXES.oauthOrganizationAccessToken;
  if (organizationToken !== (row.subType === 'organization')) return null;
  const client = await new OAuth2ClientRepository(em).clientIdOfLive(row.oauth2ClientId);
  if (!client) return null;
  const { organizationIds: memberships, email } = await userFacts(row.userId);
  const base = { credential: 'oauth2_token' as const, scopes: row.scopes, tokenId: row.id, clientId: client.clientId };
  if (organizationToken) {
    const organizationId = row.organizationId!;
    if (!memberships.includes(organizationId)) return null;
    return {
      principal: { ...base, subject: 'organization', subjectId: organizationId, organizationIds: [organizationId] },
      expiresAt: row.accessTokenExpiresAt,
    };
  }
  return {
    principal: { ...base, subject: 'user', subjectId: row.userId, organizationIds: memberships, email },
    expiresAt: row.accessTokenExpiresAt,
  };
}
