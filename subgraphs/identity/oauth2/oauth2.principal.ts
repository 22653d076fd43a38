import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../../kit/principal.js';
import { TOKEN_PREFIXES } from '../../../kit/tokens.js';
import { OAuth2Client } from './oauth2-client.entity.js';
import { OAuth2Token } from './oauth2-token.entity.js';

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
  const row = await em.findOne(OAuth2Token, { accessTokenHash: tokenHash });
  if (!row?.isAccessLive(now)) return null;
  const organizationToken = prefix === TOKEN_PREFIXES.oauthOrganizationAccessToken;
  if (organizationToken !== (row.subType === 'organization')) return null;
  const client = await em.findOne(OAuth2Client, { id: row.oauth2ClientId, deletedAt: null }, { fields: ['clientId'] });
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
