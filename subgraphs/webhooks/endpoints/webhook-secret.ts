import { randomInt } from 'node:crypto';
import { crc32 } from '../../../kit/tokens.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A new endpoint secret in Polar's format: `whsec_` + 37 random base62 characters + a 6-character
 * base62 CRC32 of them (docs/polar/resources.md#webhook-endpoints). The 43 characters after the prefix are also valid
 * (unpadded) base64, so a vanilla Standard Webhooks verifier can decode them into a 32-byte key; the
 * worker signs with that key as well as with Polar's (see delivery-signature.ts).
 */
export function generateWebhookSecret(): string {
  let random = '';
  for (let i = 0; i < 37; i++) random += BASE62[randomInt(62)];
  let checksum = '';
  for (let n = crc32(random); n > 0; n = Math.floor(n / 62)) checksum = BASE62[n % 62] + checksum;
  return `whsec_${random}${checksum.padStart(6, '0')}`;
}
