import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { type Config, ConfigError } from '../../../kit/config.js';

/** GitHub's `/meta/public_keys/secret_scanning` document. */
const keyList = z.object({
  public_keys: z.array(
    z.object({ key_identifier: z.string().min(1), key: z.string().min(1), is_current: z.boolean().optional() }),
  ),
});

/** Key identifier → ECDSA P-256 public key. Empty when nothing is configured. */
export type GitHubPublicKeys = ReadonlyMap<string, KeyObject>;

/**
 * The keys configured by GITHUB_SECRET_SCANNING_KEYS (inline JSON) and GITHUB_SECRET_SCANNING_KEYS_FILE
 * (a path), read once at start-up. A value that is not GitHub's format, or a key that is not a P-256
 * public key, stops the start with a message naming the variable: a typo must not silently turn the
 * endpoint off. No network: the operator copies GitHub's document (it changes rarely).
 */
export function loadGitHubPublicKeys(config: Config): GitHubPublicKeys {
  const keys = new Map<string, KeyObject>();
  const sources: [string, () => string][] = [];
  if (config.GITHUB_SECRET_SCANNING_KEYS)
    sources.push(['GITHUB_SECRET_SCANNING_KEYS', () => config.GITHUB_SECRET_SCANNING_KEYS as string]);
  const file = config.GITHUB_SECRET_SCANNING_KEYS_FILE;
  if (file) sources.push(['GITHUB_SECRET_SCANNING_KEYS_FILE', () => readFileSync(file, 'utf8')]);
  for (const [variable, read] of sources) {
    try {
      for (const entry of keyList.parse(JSON.parse(read())).public_keys) {
        const key = createPublicKey(entry.key);
        if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
          throw new Error(`key ${entry.key_identifier} is not an ECDSA P-256 public key`);
        keys.set(entry.key_identifier, key);
      }
    } catch (error) {
      throw new ConfigError(
        `Invalid configuration:\n  ${variable}: expected GitHub's {"public_keys":[{"key_identifier","key":"-----BEGIN PUBLIC KEY-----…"}]} (${(error as Error).message.split('\n')[0]})`,
      );
    }
  }
  return keys;
}
