import type { EntityManager } from '@mikro-orm/postgresql';
import { UserSession } from './user-session.entity.js';

/** Web sign-ins, found by the HMAC of their cookie token; ending one is a conditional soft delete. */
export class UserSessionRepository {
  constructor(private readonly em: EntityManager) {}

  /** Whatever its state: the caller decides with `isLive`. */
  findByTokenHash(tokenHash: string): Promise<UserSession | null> {
    return this.em.findOne(UserSession, { tokenHash });
  }

  /** One of the user's sessions (never another person's). */
  findOfUser(id: string, userId: string): Promise<UserSession | null> {
    return this.em.findOne(UserSession, { id, userId });
  }

  /** Ends the session if it has not ended yet; the number of rows ended (0 or 1). */
  end(id: string, now: Date): Promise<number> {
    return this.em.nativeUpdate(UserSession, { id, deletedAt: null }, { deletedAt: now });
  }
}
