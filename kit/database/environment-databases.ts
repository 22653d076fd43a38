import type { Config, EnvironmentName } from '../config.js';
import type { Secrets } from '../secrets.js';
import { ensureDatabase, withDatabase } from './databases.js';
import { declareDirectUrl, directUrlOf } from './direct-urls.js';
import { type EmbeddedCluster, openEmbeddedCluster } from './embedded-cluster.js';
import { declareReadUrl } from './read-replicas.js';

export interface EnvironmentDatabases {
  urls: Record<EnvironmentName, string>;
  embedded?: EmbeddedCluster;
  close(): Promise<void>;
}

export const EMBEDDED_DATABASE_NAMES: Record<EnvironmentName, string> = {
  production: 'billing_production',
  sandbox: 'billing_sandbox',
};

/**
 * Where each environment's data lives. With DATABASE_URL, that database is production and
 * SANDBOX_DATABASE_URL (default: the same server, database name + `_sandbox`) is the sandbox; with
 * DATABASE_DIRECT_URL (and SANDBOX_DATABASE_DIRECT_URL, defaulted the same way) they go through a pooler
 * (kit/database/direct-urls.ts); with DATABASE_READ_URL (and SANDBOX_DATABASE_READ_URL, defaulted the same
 * way) their heavy reads go to a replica (kit/database/read-replicas.ts). Without it, both live in the
 * embedded PostgreSQL under DATA_DIR.
 */
export async function openEnvironmentDatabases(
  config: Config,
  secrets: Secrets,
  role: 'server' | 'cli',
  onLog?: (line: string) => void,
): Promise<EnvironmentDatabases> {
  let embedded: EmbeddedCluster | undefined;
  let urls: Record<EnvironmentName, string>;
  if (config.DATABASE_URL) {
    const production = config.DATABASE_URL;
    const productionName = new URL(production).pathname.slice(1) || 'postgres';
    const sandbox = config.SANDBOX_DATABASE_URL ?? withDatabase(production, `${productionName}_sandbox`);
    urls = { production, sandbox };
    const direct = config.DATABASE_DIRECT_URL;
    if (direct) {
      declareDirectUrl(production, direct);
      const directName = new URL(direct).pathname.slice(1) || 'postgres';
      declareDirectUrl(sandbox, config.SANDBOX_DATABASE_DIRECT_URL ?? withDatabase(direct, `${directName}_sandbox`));
    }
    const read = config.DATABASE_READ_URL;
    if (read) {
      // The heavy reads' replicas (kit/database/read-replicas.ts); the sandbox's defaults as its primary does.
      const readName = new URL(read).pathname.slice(1) || 'postgres';
      declareReadUrl(production, read);
      declareReadUrl(sandbox, config.SANDBOX_DATABASE_READ_URL ?? withDatabase(read, `${readName}_sandbox`));
    }
  } else {
    embedded = await openEmbeddedCluster(config, secrets, role, onLog);
    urls = {
      production: withDatabase(embedded.serverUrl, EMBEDDED_DATABASE_NAMES.production),
      sandbox: withDatabase(embedded.serverUrl, EMBEDDED_DATABASE_NAMES.sandbox),
    };
  }
  for (const url of Object.values(urls).map(directUrlOf)) {
    const parsed = new URL(url);
    await ensureDatabase(withDatabase(url, 'postgres'), parsed.pathname.slice(1)).catch(error => {
      // Without CREATEDB the database must already exist; the connection below says so if it doesn't.
      if ((error as { code?: string }).code !== '42501') throw error;
    });
  }
  return { urls, embedded, close: async () => embedded?.stop() };
}
