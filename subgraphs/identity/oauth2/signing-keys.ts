import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  calculateJwkThumbprint,
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  SignJWT,
  type JWTPayload,
} from 'jose';
import type { Clock } from '../../../kit/clock.js';
import { RETIRED_KEY_PUBLISHED_SECONDS } from './oauth2.constants.js';
import { SigningKey } from './signing-key.entity.js';
import { SigningKeyRepository } from './signing-key.repository.js';

type Ctx = { em: EntityManager; clock: Clock };

interface LoadedKey {
  kid: string;
  privateKey: CryptoKey;
}

/** How long this process trusts its memory of the active key and the JWKS before reading them again. */
const CACHE_MS = 60_000;

/**
 * The id_token signing keys (RS256, RSA 2048). The first signature creates a key; `rotate()` makes a
 * new active key and retires the old one, which stays in the JWKS (for RETIRED_KEY_PUBLISHED_SECONDS)
 * so the id_tokens it signed keep verifying. Private JWKs are stored encrypted with AES-256-GCM under a
 * key derived (HKDF-SHA256) from the server secret.
 */
export class SigningKeys {
  private readonly encryptionKey: Buffer;
  private active: { key: LoadedKey; until: number } | null = null;
  private jwksCache: { value: { keys: JWK[] }; until: number } | null = null;

  constructor(secret: string) {
    this.encryptionKey = Buffer.from(hkdfSync('sha256', secret, 'polar-oauth2-signing-keys', 'private-jwk-v1', 32));
  }

  /** Signs a JWT with the active key (creating the first key when there is none). */
  async sign(ctx: Ctx, payload: JWTPayload): Promise<string> {
    const key = await this.activeKey(ctx);
    return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: key.kid }).sign(key.privateKey);
  }

  /** The public keys: the active one and the recently retired ones. */
  async jwks(ctx: Ctx): Promise<{ keys: JWK[] }> {
    const nowMs = Date.now();
    if (this.jwksCache && this.jwksCache.until > nowMs) return this.jwksCache.value;
    await this.activeKey(ctx);
    const since = new Date(ctx.clock.now().getTime() - RETIRED_KEY_PUBLISHED_SECONDS * 1000);
    const rows = await new SigningKeyRepository(ctx.em).findPublished(since);
    const value = { keys: rows.map(r => ({ ...r.publicJwk, kid: r.kid, alg: 'RS256', use: 'sig' }) as JWK) };
    this.jwksCache = { value, until: nowMs + CACHE_MS };
    return value;
  }

  /** A new active key; the previous one is retired but still published. Returns the new kid. */
  async rotate(ctx: Ctx): Promise<string> {
    const created = await this.generate(ctx.clock.now());
    await ctx.em.transactional(async em => {
      await new SigningKeyRepository(em).retireActive(ctx.clock.now());
      em.persist(em.create(SigningKey, created.row as SigningKey));
    });
    this.forget();
    return created.row.kid;
  }

  /** Drops what this process remembers (after a rotation elsewhere, or in tests). */
  forget(): void {
    this.active = null;
    this.jwksCache = null;
  }

  private async activeKey(ctx: Ctx): Promise<LoadedKey> {
    const nowMs = Date.now();
    if (this.active && this.active.until > nowMs) return this.active.key;
    let row = await new SigningKeyRepository(ctx.em).findActive();
    if (row) {
      const loaded = await this.load(row).catch(() => null);
      if (!loaded) {
        // Encrypted under another SECRET: nothing signed with it can be trusted now anyway.
        await this.rotate(ctx);
        return this.activeKey(ctx);
      }
      this.active = { key: loaded, until: nowMs + CACHE_MS };
      return loaded;
    }
    const created = await this.generate(ctx.clock.now());
    // The partial unique index allows one active key: if another process made one first, use theirs.
    await new SigningKeyRepository(ctx.em).insertActiveUnlessOne(created.row);
    row = await new SigningKeyRepository(ctx.em.fork()).findActiveOrFail();
    const loaded = row.kid === created.row.kid ? created.key : await this.load(row);
    this.active = { key: loaded, until: nowMs + CACHE_MS };
    return loaded;
  }

  private async generate(now: Date): Promise<{
    row: Pick<SigningKey, 'id' | 'kid' | 'publicJwk' | 'privateJwkEncrypted' | 'createdAt' | 'status'>;
    key: LoadedKey;
  }> {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const privateJwk = await exportJWK(privateKey);
    const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
    const row = {
      id: crypto.randomUUID(),
      kid,
      publicJwk: { kty: publicJwk.kty, n: publicJwk.n, e: publicJwk.e },
      privateJwkEncrypted: this.encrypt(JSON.stringify(privateJwk)),
      createdAt: now,
      status: 'active' as const,
    };
    return { row, key: { kid, privateKey } };
  }

  private async load(row: SigningKey): Promise<LoadedKey> {
    const jwk = JSON.parse(this.decrypt(row.privateJwkEncrypted)) as JWK;
    const privateKey = (await importJWK(jwk, 'RS256')) as CryptoKey;
    return { kid: row.kid, privateKey };
  }

  private encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(
      '.',
    );
  }

  private decrypt(stored: string): string {
    const [version, iv, tag, data] = stored.split('.');
    if (version !== 'v1' || !iv || !tag || !data) throw new Error('unknown signing key encoding');
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** OIDC Core §3.1.3.6: base64url of the left half of SHA-256 of the ASCII access token (RS256). */
export function atHash(accessToken: string): string {
  const digest = createHash('sha256').update(accessToken, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}
