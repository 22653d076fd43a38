import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
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
 *
 * Processes sharing DATA_DIR may start at once (replicas, the CLI beside `npm start`): the file is written
 * whole under a temporary name and then put in place, so no reader sees it half written, and the first
 * one created is the only one (a hard link fails when the name exists). A process that loses that race
 * reads the winner's secrets and uses them, so every process on the folder signs with the same keys.
 */
export async function loadSecrets(config: Config): Promise<Secrets> {
  const file = path.join(config.DATA_DIR, 'secrets.json');
  for (;;) {
    const stored = await readStored(file);
    const merged: Secrets = {
      secret: config.SECRET ?? stored?.secret ?? randomBytes(32).toString('hex'),
      internalKey: config.INTERNAL_KEY ?? stored?.internalKey ?? randomBytes(32).toString('hex'),
      embeddedDatabasePassword: stored?.embeddedDatabasePassword ?? randomBytes(18).toString('base64url'),
    };
    const toStore = {
      secret: stored?.secret ?? (config.SECRET ? undefined : merged.secret),
      internalKey: stored?.internalKey ?? (config.INTERNAL_KEY ? undefined : merged.internalKey),
      embeddedDatabasePassword: merged.embeddedDatabasePassword,
    };
    if (JSON.stringify(toStore) === JSON.stringify(stored ?? {})) return merged;
    await mkdir(config.DATA_DIR, { recursive: true, mode: 0o755 });
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temporary, JSON.stringify(toStore, null, 2), { mode: 0o600 });
    try {
      if (stored === null) await link(temporary, file);
      else await rename(temporary, file);
      return merged;
    } catch (error) {
      // Another process created it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await rm(temporary, { force: true });
    }
  }
}

/** The stored secrets, or null when the file does not exist yet. */
async function readStored(file: string): Promise<Partial<Secrets> | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Partial<Secrets>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
