import { randomBytes } from 'node:crypto';
import { dropDatabase, ensureDatabase, withDatabase } from '../../kit/database/databases.js';
import { commitWithoutFlush, createMigratedDatabase, onServer } from './database-template.js';

/** The PostgreSQL server every test file uses (set up by global-setup.ts). */
export function testServerUrl(): string {
  const url = process.env.TEST_DATABASE_SERVER_URL;
  if (!url) throw new Error('TEST_DATABASE_SERVER_URL is not set: run the tests through jest (global setup).');
  return url;
}

/** A new, empty database for one test file; `drop()` removes it. */
export async function createTestDatabase(label: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `test_${label.replace(/\W/g, '_').slice(0, 30)}_${randomBytes(4).toString('hex')}`;
  const server = testServerUrl();
  await ensureDatabase(server, name);
  await onServer(server, client => commitWithoutFlush(client, name));
  return { url: withDatabase(server, name), drop: () => dropDatabase(server, name) };
}

/**
 * A new database for one test file with every subgraph's migrations already applied (a copy of a
 * template migrated once per set of migrations: test/support/database-template.ts); `drop()` removes it.
 */
export async function createMigratedTestDatabase(label: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `test_${label.replace(/\W/g, '_').slice(0, 30)}_${randomBytes(4).toString('hex')}`;
  return createMigratedDatabase(testServerUrl(), name);
}
