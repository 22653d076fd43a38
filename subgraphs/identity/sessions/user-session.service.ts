import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import type { PrincipalCache } from '../../../kit/principal-cache.js';
import { ALL_SCOPES } from '../../../kit/scopes.js';
import { generateToken, hashToken, hasValidChecksum, TOKEN_PREFIXES } from '../../../kit/tokens.js';
import { UserSession } from '../tokens/user-session.entity.js';
import { UserSessionRepository } from '../tokens/user-session.repository.js';

/** How long a web sign-in lasts (Polar: 14 days). */
export const USER_SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/** What a signed-in browser may do: everything its user may (the pages act for the person). */
export const USER_SESSION_SCOPES: readonly string[] = ALL_SCOPES;

/**
 * Web sign-ins (`polar_us_`, kept in the `polar_session` cookie by the pages). Only the HMAC of the
 * token is stored; `TokenPrincipalResolver.fromSession` turns the cookie back into the user.
 */
export class UserSessionService {
  constructor(
    private readonly secret: string,
    private readonly cache: PrincipalCache,
  ) {}

  /** A new session for the user; the raw token exists nowhere else afterwards. */
  async create(
    ctx: { em: EntityManager; clock: Clock },
    userId: string,
  ): Promise<{ session: UserSession; raw: string }> {
    const raw = generateToken(TOKEN_PREFIXES.userSession);
    const now = ctx.clock.now();
    const session = ctx.em.create(UserSession, {
      userId,
      tokenHash: hashToken(raw, this.secret),
      scopes: [...USER_SESSION_SCOPES],
      expiresAt: new Date(now.getTime() + USER_SESSION_TTL_MS),
      createdAt: now,
    } as UserSession);
    await ctx.em.flush();
    return { session, raw };
  }

  /** The live session behind a raw cookie value, or null. */
  async findLive(ctx: { em: EntityManager; clock: Clock }, raw: string): Promise<UserSession | null> {
    if (!hasValidChecksum(raw, TOKEN_PREFIXES.userSession)) return null;
    const session = await new UserSessionRepository(ctx.em).findByTokenHash(hashToken(raw, this.secret));
    return session?.isLive(ctx.clock.now()) ? session : null;
  }

  /** Ends a session (sign-out); a no-op when it is already ended or unknown. */
  async revoke(ctx: { em: EntityManager; clock: Clock }, sessionId: string): Promise<void> {
    await new UserSessionRepository(ctx.em).end(sessionId, ctx.clock.now());
    await this.cache.announce(ctx.em, { tokenIds: [sessionId] });
  }
}
