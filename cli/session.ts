import type { Config, EnvironmentName } from '../kit/config.js';
import { systemClock } from '../kit/clock.js';
import { openEnvironmentDatabases } from '../kit/database/environment-databases.js';
import { loadSecrets } from '../kit/secrets.js';
import { IdentityAdmin } from '../subgraphs/identity/admin.js';
import { type IdentityRuntime, startIdentity } from '../subgraphs/identity/runtime.js';

/** What a command works with: one environment's identity data, opened for the command's duration. */
export interface CliSession {
  environment: EnvironmentName;
  admin: IdentityAdmin;
  identity: IdentityRuntime;
  close(): Promise<void>;
}

/**
 * Opens the same data a running `npm start` serves: DATABASE_URL (and SANDBOX_DATABASE_URL) when set,
 * otherwise the embedded PostgreSQL under DATA_DIR, reused when the server runs or started just for
 * this command (and stopped by `close`). Secrets come from the same place as the server's
 * (SECRET or DATA_DIR/secrets.json), so the tokens issued here are valid there.
 */
export async function openSession(config: Config, environment: EnvironmentName, note: (line: string) => void): Promise<CliSession> {
  const secrets = await loadSecrets(config);
  if (!config.DATABASE_URL) note(`using the embedded PostgreSQL in ${config.DATA_DIR}`);
  const databases = await openEnvironmentDatabases(config, secrets, 'cli');
  let identity: IdentityRuntime;
  try {
    identity = await startIdentity({ databaseUrl: databases.urls[environment], secret: secrets.secret, clock: systemClock, poolMax: 2 });
  } catch (error) {
    await databases.close().catch(() => undefined);
    throw error;
  }
  let closed = false;
  return {
    environment,
    identity,
    admin: new IdentityAdmin(identity.orm, identity.services, systemClock, secrets.secret),
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await identity.close();
      } finally {
        await databases.close();
      }
    },
  };
}
