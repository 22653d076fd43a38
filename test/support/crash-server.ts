import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startEnvironment } from '../../embedded/environment.js';
import { systemClock } from '../../kit/clock.js';
import { loadConfig } from '../../kit/config.js';
import { createLogger } from '../../kit/logger.js';
import { ALL_SCOPES } from '../../kit/scopes.js';
import { IdentityAdmin } from '../../subgraphs/identity/admin.js';
import { createMigratedTestDatabase } from './database.js';
import { buildServer, freePort, killServers, type ServerSetup } from './embedded-server.js';
import { call, TEST_SECRET } from './stack.js';

/**
 * What a crash test (a child server killed at a fault point, embedded-server.ts) starts from: the server
 * built into a private folder, a data folder, and two fresh databases (`<label>_production`,
 * `<label>_sandbox`). `remove` kills what the test left running and takes all of it away; a set-up that
 * fails half way takes away what it made.
 */
export interface PreparedServer {
  setup: ServerSetup;
  remove(): Promise<void>;
}

export async function prepareServer(label: string): Promise<PreparedServer> {
  const made: { databases: { drop: () => Promise<void> }[]; dirs: string[] } = { databases: [], dirs: [] };
  const remove = async () => {
    killServers();
    for (const database of made.databases) await database.drop().catch(() => undefined);
    for (const dir of made.dirs) await rm(dir, { recursive: true, force: true });
  };
  try {
    const buildDir = buildServer(label);
    made.dirs.push(buildDir);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), `billing-${label}-`));
    made.dirs.push(dataDir);
    await chmod(dataDir, 0o755);
    const name = label.replaceAll('-', '_');
    const production = await createMigratedTestDatabase(`${name}_production`);
    made.databases.push(production);
    const sandbox = await createMigratedTestDatabase(`${name}_sandbox`);
    made.databases.push(sandbox);
    const setup = {
      buildDir,
      dataDir,
      productionUrl: production.url,
      sandboxUrl: sandbox.url,
      port: await freePort(),
      productionPort: await freePort(),
    };
    return { setup, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/**
 * A merchant of the sandbox database ("Crash Co", crash@example.com) with an all-scopes organization
 * token and one product made from `product`, made in-process and closed again before the child starts.
 */
export async function seedCrashMerchant(
  sandboxUrl: string,
  product: Record<string, unknown>,
): Promise<{ token: string; productId: string }> {
  const environment = await startEnvironment({
    name: 'sandbox',
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    databaseUrl: sandboxUrl,
    secret: TEST_SECRET,
    clock: systemClock,
    logger: createLogger('silent'),
  });
  try {
    const admin = new IdentityAdmin(environment.identity.orm, environment.identity.services, systemClock, TEST_SECRET);
    await admin.createUser('crash@example.com', 'correct horse battery');
    const organization = await admin.createOrganization(
      'crash@example.com',
      'Crash Co',
      `crash-${randomBytes(3).toString('hex')}`,
    );
    const token = await admin.createOrganizationAccessToken(organization.id, [...ALL_SCOPES]);
    const server = environment.app.listen(0, '127.0.0.1');
    await new Promise(resolve => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    const created = await call(base, 'POST', '/v1/products/', { token, body: product });
    server.close();
    return { token, productId: created.body.id };
  } finally {
    await environment.close();
  }
}
