import { createHash, type Hash } from 'node:crypto';

const SHA256_BLOCK_BYTES = 64;

/**
 * HMAC-SHA256 (RFC 2104) with a key used again and again: the key's two padded blocks are hashed
 * once, and each MAC copies the two hash states. Node 24's `createHmac` prepares the key on every call
 * (key-object checks), 14.6 µs per MAC on the development machine against 2.9 µs here; the token
 * hashing of every request and the two webhook signatures of every delivery pay it.
 * `kit/__tests__/hmac.test.ts` checks the output against `createHmac`.
 */
export class HmacSha256 {
  private readonly inner: Hash;
  private readonly outer: Hash;

  constructor(key: Buffer | string) {
    const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
    const block = Buffer.alloc(SHA256_BLOCK_BYTES);
    (bytes.length > SHA256_BLOCK_BYTES ? createHash('sha256').update(bytes).digest() : bytes).copy(block);
    const innerPad = Buffer.alloc(SHA256_BLOCK_BYTES);
    const outerPad = Buffer.alloc(SHA256_BLOCK_BYTES);
    for (let i = 0; i < SHA256_BLOCK_BYTES; i++) {
      innerPad[i] = block[i] ^ 0x36;
      outerPad[i] = block[i] ^ 0x5c;
    }
    this.inner = createHash('sha256').update(innerPad);
    this.outer = createHash('sha256').update(outerPad);
  }

  /** The MAC of the concatenated parts (strings as UTF-8). */
  digest(parts: readonly (Buffer | string)[], encoding: 'base64' | 'hex'): string {
    const inner = this.inner.copy();
    for (const part of parts) inner.update(part);
    return this.outer.copy().update(inner.digest()).digest(encoding);
  }
}
