import { HmacSha256 } from '../../../kit/hmac.js';

const STANDARD_PREFIX = 'whsec_';

/**
 * The `webhook-signature` header of one attempt: Standard Webhooks `v1,<base64 HMAC-SHA256 of
 * "{id}.{timestamp}.{body}">`, computed with two keys, space-separated (the spec's list, meant for
 * secret rotation; verifiers accept any `v1` entry that matches):
 *
 * 1. Polar's key: the UTF-8 bytes of the whole secret string (docs/polar/webhooks.md#signature). This is
 *    what the Polar SDK's `validateEvent(body, headers, secret)` checks, and what a generic verifier
 *    checks when given `base64(secret)` as Polar's docs tell merchants to do.
 * 2. The Standard Webhooks key: the secret without `whsec_`, base64-decoded. This is what
 *    `new Webhook(secret)` of the `standardwebhooks` package checks when handed the secret as shown.
 *
 * So the secret "as the merchant sees it" verifies with either library. A secret that is not valid
 * base64 after the prefix (a user-chosen one) gets only the first signature.
 */
export function signatureHeader(secret: string, id: string, timestamp: number, body: Buffer | string): string {
  return sign(signingKeys(secret), id, timestamp, body);
}

/**
 * The same header as `signatureHeader`, with the secret's keys derived once: the worker signs a whole
 * chain of one endpoint's messages with one signer.
 */
export function signerFor(secret: string): (id: string, timestamp: number, body: Buffer) => string {
  const keys = signingKeys(secret);
  return (id, timestamp, body) => sign(keys, id, timestamp, body);
}

function signingKeys(secret: string): HmacSha256[] {
  const keys = [new HmacSha256(secret)];
  const standardKey = standardWebhooksKey(secret);
  if (standardKey) keys.push(new HmacSha256(standardKey));
  return keys;
}

function sign(keys: HmacSha256[], id: string, timestamp: number, body: Buffer | string): string {
  const prefix = `${id}.${timestamp}.`;
  let header = '';
  for (const key of keys) {
    const signature = key.digest([prefix, body], 'base64');
    header += header ? ` v1,${signature}` : `v1,${signature}`;
  }
  return header;
}

function standardWebhooksKey(secret: string): Buffer | undefined {
  if (!secret.startsWith(STANDARD_PREFIX)) return undefined;
  const encoded = secret.slice(STANDARD_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length > 0 ? key : undefined;
}
