import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config.js';

export interface Secrets {
  /** HMAC key for stored token hashes. */
  secret: string;
  /** Signs principals between processes. */
  internalKey: string;
  /** Password of the embedded PostgreSQL superuser. */
  embeddedDatabasePassword: string;
}

/**
 * Secrets come from configuration; when absent (the zero-configuration start) they are generated once
 * and kept in DATA_DIR/secrets.json, so tokens stay valid across restarts and the CLI shares them.
 */
export async function loadSecrets(config: Config): Promise<Secrets> {
  const file = path.join(config.DATA_DIR, 'secrets.json');
  let stored: Partial<Secrets> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>;
  const merged: Secrets = {
    secret: config.SECRET ?? stored.secret ?? randomBytes(32).toString('hex'),
    internalKey: config.INTERNAL_KEY ?? stored.internalKey ?? randomBytes(32).toString('hex'),
    embeddedDatabasePassword: stored.embeddedDatabasePassword ?? randomBytes(18).toString('base64url'),
  };
  const toStore = {
    secret: stored.secret ?? (config.SECRET ? undefined : merged.secret),
    internalKey: stored.internalKey ?? (config.INTERNAL_KEY ? undefined : merged.internalKey),
    embeddedDatabasePassword: merged.embeddedDatabasePassword,
  };
  if (JSON.stringify(toStore) !== JSON.stringify(stored)) {
    await mkdir(config.DATA_DIR, { recursive: true, mode: 0o755 });
    await writeFile(file, JSON.stringify(toStore, null, 2), { mode: 0o600 });
  }
  return merged;
}
