import type { EntityManager } from '@mikro-orm/postgresql';
import { PersonalAccessToken } from './personal-access-token.entity.js';

/** Personal access tokens, found by the HMAC of the raw token; revoking one is a conditional soft delete. */
export class PersonalAccessTokenRepository {
  constructor(private readonly em: EntityManager) {}

  /** Whatever its state (principal resolution decides with `isLive`, and so does a leak report). */
  findByTokenHash(tokenHash: string): Promise<PersonalAccessToken | null> {
    return this.em.findOne(PersonalAccessToken, { tokenHash });
  }

  /** Not revoked (the CLI's `revoke`). */
  findUndeletedByTokenHash(tokenHash: string): Promise<PersonalAccessToken | null> {
    return this.em.findOne(PersonalAccessToken, { tokenHash, deletedAt: null });
  }

  touchLastUsed(id: string, now: Date): Promise<number> {
    return this.em.nativeUpdate(PersonalAccessToken, { id }, { lastUsedAt: now });
  }

  /** Revokes the token if it is not revoked yet; the number of rows revoked (0 or 1). */
  revoke(id: string, now: Date): Promise<number> {
    return this.em.nativeUpdate(PersonalAccessToken, { id, deletedAt: null }, { deletedAt: now });
  }
}
