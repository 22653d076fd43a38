import type { EntityManager } from '@mikro-orm/postgresql';
import { SigningKey } from './signing-key.entity.js';

/** The id_token signing keys. A partial unique index allows one `active` key. */
export class SigningKeyRepository {
  constructor(private readonly em: EntityManager) {}

  findActive(): Promise<SigningKey | null> {
    return this.em.findOne(SigningKey, { status: 'active' });
  }

  findActiveOrFail(): Promise<SigningKey> {
    return this.em.findOneOrFail(SigningKey, { status: 'active' });
  }

  /** The keys the JWKS publishes: the active one and those retired after `retiredSince`, newest first. */
  findPublished(retiredSince: Date): Promise<SigningKey[]> {
    return this.em.find(
      SigningKey,
      { $or: [{ status: 'active' }, { retiredAt: { $gt: retiredSince } }] },
      { orderBy: { createdAt: 'desc' } },
    );
  }

  retireActive(now: Date): Promise<number> {
    return this.em.nativeUpdate(SigningKey, { status: 'active' }, { status: 'retired', retiredAt: now });
  }

  /** Inserts the key as the active one unless another process made one first (then nothing happens). */
  async insertActiveUnlessOne(
    key: Pick<SigningKey, 'id' | 'kid' | 'publicJwk' | 'privateJwkEncrypted' | 'createdAt'>,
  ): Promise<void> {
    await this.em.getConnection().execute(
      `insert into "identity"."oauth2_signing_keys" ("id", "kid", "algorithm", "public_jwk", "private_jwk_encrypted", "status", "created_at")
       values (?, ?, 'RS256', ?, ?, 'active', ?) on conflict do nothing`,
      [key.id, key.kid, JSON.stringify(key.publicJwk), key.privateJwkEncrypted, key.createdAt],
    );
  }
}
