import { createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { call } from '../../support/stack.js';

/**
 * What GitHub's secret-scanning partner program sends, signed by a key pair made here: the raw JSON
 * body is signed with ECDSA P-256 / SHA-256 and the key is configured as GitHub's
 * `/meta/public_keys/secret_scanning` document (`GITHUB_KEYS`).
 */
export const SECRET_SCANNING_PATH = '/v1/integrations/github/secret-scanning';
export const KEY_ID = 'test-key-1';
const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
/** A key pair GitHub does not publish: its signatures are wrong. */
export const otherKeys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
export const GITHUB_KEYS = JSON.stringify({
  public_keys: [{ key_identifier: KEY_ID, key: publicKey.export({ type: 'spki', format: 'pem' }), is_current: true }],
});

export function sign(body: string, key: KeyObject = privateKey): string {
  return createSign('SHA256').update(body).sign(key).toString('base64');
}

/** What GitHub sends: the JSON body, its signature and the key's identifier. */
export function report(baseUrl: string, body: string, headers: Record<string, string> = {}) {
  return call(baseUrl, 'POST', SECRET_SCANNING_PATH, {
    rawBody: body,
    headers: {
      'content-type': 'application/json',
      'github-public-key-identifier': KEY_ID,
      'github-public-key-signature': sign(body),
      ...headers,
    },
  });
}

/** One entry of a report: a token found in a public file. */
export const match = (token: string, type: string) => ({
  token,
  type,
  url: 'https://github.com/octo/leaky/blob/main/.env',
  source: 'content',
});
