import { createHmac } from 'node:crypto';

const STANDARD_PREFIX = 'whsec_';

/**
 * The `webhook-signature` header of one attempt: Standard Webhooks `v1,<base64 HMAC-SHA256 of
 * "{id}.{timestamp}.{body}">`, computed with two keys, space-separated (the spec's list, meant for
 * secret rotation; verifiers accept any `v1` entry that matches):
 *
 * 1. Polar's key: the UTF-8 bytes of the whole secret string (polar-api.md §6 "key quirk"). This is
 *    what the Polar SDK's `validateEvent(body, headers, secret)` checks, and what a generic verifier
 *    checks when given `base64(secret)` as Polar's docs tell merchants to do.
 * 2. The Standard Webhooks key: the secret without `whsec_`, base64-decoded. This is what
 *    `new Webhook(secret)` of the `standardwebhooks` package checks when handed the secret as shown.
 *
 * So the secret "as the merchant sees it" verifies with either library. A secret that is not valid
 * base64 after the prefix (a user-chosen one) gets only the first signature.
 */
export function signatureHeader(secret: string, id: string, timestamp: number, body: Buffer | string): string {
  const content = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), Buffer.isBuffer(body) ? body : Buffer.from(body)]);
  const signatures = [hmac(Buffer.from(secret, 'utf8'), content)];
  const standardKey = standardWebhooksKey(secret);
  if (standardKey) signatures.push(hmac(standardKey, content));
  return signatures.map(s => `v1,${s}`).join(' ');
}

function hmac(key: Buffer, content: Buffer): string {
  return createHmac('sha256', key).update(content).digest('base64');
}

function standardWebhooksKey(secret: string): Buffer | undefined {
  if (!secret.startsWith(STANDARD_PREFIX)) return undefined;
  const encoded = secret.slice(STANDARD_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length > 0 ? key : undefined;
}
