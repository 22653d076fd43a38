import type { EntityManager } from '@mikro-orm/postgresql';
import { OAuth2AuthorizationCode } from './oauth2-authorization-code.entity.js';

/**
 * Authorization codes, found by the HMAC of the code. Consuming one is a conditional UPDATE
 * (`… and consumed_at is null`), so of two concurrent redemptions exactly one succeeds.
 */
export class OAuth2AuthorizationCodeRepository {
  constructor(private readonly em: EntityManager) {}

  /** Whatever its state: a consumed code presented again is a replay. */
  findByCodeHash(codeHash: string): Promise<OAuth2AuthorizationCode | null> {
    return this.em.findOne(OAuth2AuthorizationCode, { codeHash });
  }

  /** Consumes the code if nobody has; the number of rows consumed (0 or 1). */
  consume(id: string, now: Date): Promise<number> {
    return this.em.nativeUpdate(OAuth2AuthorizationCode, { id, consumedAt: null }, { consumedAt: now });
  }

  markReplayed(id: string, now: Date): Promise<number> {
    return this.em.nativeUpdate(OAuth2AuthorizationCode, { id }, { replayedAt: now });
  }

  /** Whether a replay of the code has been recorded. */
  async wasReplayed(id: string): Promise<boolean> {
    const code = await this.em.findOne(OAuth2AuthorizationCode, { id }, { fields: ['replayedAt'] });
    return !!code?.replayedAt;
  }
}
