import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config, EnvironmentName } from '../kit/config.js';
import { systemClock } from '../kit/clock.js';
import { openEnvironmentDatabases } from '../kit/database/environment-databases.js';
import { PrincipalCache } from '../kit/principal-cache.js';
import { loadSecrets } from '../kit/secrets.js';
import {
  createIdentityServices,
  IdentityAdmin,
  type IdentityServices,
  openIdentityOrm,
} from '../subgraphs/identity/runtime.js';

/** What a command works with: one environment's identity data, opened for the command's duration. */
export interface CliSession {
  environment: EnvironmentName;
  /** The environment's database (commands of other subgraphs open their own ORM on it). */
  databaseUrl: string;
  admin: IdentityAdmin;
  /** The identity data and use cases; no GraphQL schema or principal resolver (the CLI serves nothing). */
  identity: { orm: MikroORM; services: IdentityServices };
  close(): Promise<void>;
}

/**
 * Opens the same data a running `npm start` serves: DATABASE_URL (and SANDBOX_DATABASE_URL) when set,
 * otherwise the embedded PostgreSQL under DATA_DIR, reused when the server runs or started just for
 * this command (and stopped by `close`). Secrets come from the same place as the server's
 * (SECRET or DATA_DIR/secrets.json), so the tokens issued here are valid there.
 */
export async function openSession(
  config: Config,
  environment: EnvironmentName,
  note: (line: string) => void,
): Promise<CliSession> {
  const secrets = await loadSecrets(config);
  if (!config.DATABASE_URL) note(`using the embedded PostgreSQL in ${config.DATA_DIR}`);
  const databases = await openEnvironmentDatabases(config, secrets, 'cli');
  let orm: MikroORM;
  try {
    orm = await openIdentityOrm(databases.urls[environment], 2);
  } catch (error) {
    await databases.close().catch(() => undefined);
    throw error;
  }
  const identity = { orm, services: createIdentityServices(secrets.secret, new PrincipalCache()) };
  let closed = false;
  return {
    environment,
    databaseUrl: databases.urls[environment],
    identity,
    admin: new IdentityAdmin(identity.orm, identity.services, systemClock, secrets.secret),
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await orm.close();
      } finally {
        await databases.close();
      }
    },
  };
}
