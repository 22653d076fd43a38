import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import { InvalidToken } from '../../../kit/errors.js';
import { ANONYMOUS, bearerOf, type Principal, type PrincipalResolver } from '../../../kit/principal.js';
import { type PrincipalCache, principalLookup } from '../../../kit/principal-cache.js';
import { hashToken, hasValidChecksum, prefixOf, TOKEN_PREFIXES, type TokenPrefix } from '../../../kit/tokens.js';
import { userFacts } from '../memberships/membership.repository.js';
import { resolveOAuth2AccessToken } from '../oauth2/oauth2.principal.js';
import { OrganizationAccessTokenRepository } from '../tokens/organization-access-token.repository.js';
import { PersonalAccessTokenRepository } from '../tokens/personal-access-token.repository.js';
import { UserSessionRepository } from '../tokens/user-session.repository.js';

/** Don't write `last_used_at` more often than this per token: it is informational, not an audit log. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Bearer → principal, as docs/polar/auth.md#bearer-resolution describes: a known prefix with no live row, a bad
 * checksum, or an unknown prefix is `invalid_token`; no bearer is anonymous (or the web session).
 */
export class TokenPrincipalResolver implements PrincipalResolver {
  private readonly pendingWrites = new Set<Promise<void>>();

  constructor(
    private readonly orm: MikroORM,
    private readonly secret: string,
    private readonly clock: Clock,
    private readonly cache: PrincipalCache,
  ) {}

  async resolve(authorization: string | undefined, sessionToken?: string): Promise<Principal> {
    const token = bearerOf(authorization);
    if (token === undefined) {
      if (authorization && /^bearer\s*$/i.test(authorization.trim())) throw new InvalidToken();
      return sessionToken ? principalLookup(() => this.fromSession(sessionToken)) : ANONYMOUS;
    }
    const prefix = prefixOf(token);
    if (prefix === TOKEN_PREFIXES.clientRegistrationToken) return ANONYMOUS;
    if (!prefix || !hasValidChecksum(token, prefix)) throw new InvalidToken();
    const hash = hashToken(token, this.secret);
    const now = this.clock.now();
    const cached = this.cache.get(hash, now.getTime());
    if (cached) return cached;
    return principalLookup(() => this.lookUp(prefix, hash, now));
  }

  /** The principal of a well-formed bearer the cache does not hold, from its row; cached once found. */
  private async lookUp(prefix: TokenPrefix, hash: string, now: Date): Promise<Principal> {
    const em = this.orm.em.fork();
    let principal: Principal | undefined;
    let expiresAt: Date | null = null;
    if (prefix === TOKEN_PREFIXES.organizationAccessToken) {
      const tokens = new OrganizationAccessTokenRepository(em);
      const row = await tokens.findByTokenHash(hash);
      if (row?.isLive(now)) {
        principal = {
          subject: 'organization',
          subjectId: row.organizationId,
          credential: 'organization_access_token',
          scopes: row.scopes,
          organizationIds: [row.organizationId],
          tokenId: row.id,
        };
        expiresAt = row.expiresAt;
        this.touch(row.lastUsedAt, now, () => tokens.touchLastUsed(row.id, now));
      }
    } else if (prefix === TOKEN_PREFIXES.personalAccessToken) {
      const tokens = new PersonalAccessTokenRepository(em);
      const row = await tokens.findByTokenHash(hash);
      if (row?.isLive(now)) {
        principal = {
          subject: 'user',
          subjectId: row.userId,
          credential: 'personal_access_token',
          scopes: row.scopes,
          ...(await this.userFacts(row.userId)),
          tokenId: row.id,
        };
        expiresAt = row.expiresAt;
        this.touch(row.lastUsedAt, now, () => tokens.touchLastUsed(row.id, now));
      }
    } else if (
      prefix === TOKEN_PREFIXES.oauthUserAccessToken ||
      prefix === TOKEN_PREFIXES.oauthOrganizationAccessToken
    ) {
      const resolved = await resolveOAuth2AccessToken(em, prefix, hash, now, userId => this.userFacts(userId));
      if (resolved) ({ principal, expiresAt } = resolved);
    }
    if (!principal) throw new InvalidToken();
    this.cache.set(hash, principal, now.getTime(), expiresAt);
    return principal;
  }

  private async fromSession(sessionToken: string): Promise<Principal> {
    if (!hasValidChecksum(sessionToken, TOKEN_PREFIXES.userSession)) return ANONYMOUS;
    const row = await new UserSessionRepository(this.orm.em.fork()).findByTokenHash(
      hashToken(sessionToken, this.secret),
    );
    if (!row?.isLive(this.clock.now())) return ANONYMOUS;
    return {
      subject: 'user',
      subjectId: row.userId,
      credential: 'user_session',
      scopes: row.scopes,
      ...(await this.userFacts(row.userId)),
      tokenId: row.id,
    };
  }

  private userFacts(userId: string): Promise<{ organizationIds: string[]; email: string | null }> {
    return userFacts(this.orm.em.fork(), userId);
  }

  /** Runs `writeLastUsed` (a token's `last_used_at = now`) unless the stored value is recent enough. */
  private touch(lastUsedAt: Date | null, now: Date, writeLastUsed: () => Promise<number>): void {
    if (lastUsedAt && now.getTime() - lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    // Not awaited by the request: a failed bookkeeping write must not fail it. Tracked, so that
    // `settle()` lets a shutdown wait for it instead of closing the pool under a running query.
    const write = writeLastUsed()
      .then(() => undefined)
      .catch(() => undefined);
    this.pendingWrites.add(write);
    void write.finally(() => this.pendingWrites.delete(write));
  }

  /** Resolves once every `last_used_at` write started so far has finished (call before closing the ORM). */
  async settle(): Promise<void> {
    await Promise.all([...this.pendingWrites]);
  }
}
