// Tests need a PostgreSQL server: the one in TEST_DATABASE_URL / DATABASE_URL when given (CI uses the
// machine's), otherwise an embedded one in a temporary folder, so `npm test` works on a machine with
// no database server at all. Each test file then creates databases of its own on it.
// Plain ESM because Jest loads global setup outside its transformer; Node strips the types of the
// imported .ts file itself.
import { randomBytes } from 'node:crypto';
import { chown, mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export default async function globalSetup() {
  // Names this run's spare database copies, which global tear-down drops (test/support/database-template.ts).
  process.env.TEST_RUN_ID = randomBytes(4).toString('hex');
  if (process.env.TEST_DATABASE_SERVER_URL) return;
  const given = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (given) {
    process.env.TEST_DATABASE_SERVER_URL = given;
    return;
  }
  const { EmbeddedPostgres } = await import('../../kit/database/embedded-postgres.ts');
  const { embeddedPostgresRuntime } = await import('../../kit/database/embedded-postgres-runtime.ts');
  // As root, PostgreSQL runs as the OS user `postgres`: the runtime is a copy it can execute when the
  // project is somewhere it cannot reach (under /root), and the temporary folder is given to it.
  const runtime = await embeddedPostgresRuntime();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'billing-test-pg-'));
  if (runtime.user) await chown(dir, runtime.user.uid, runtime.user.gid);
  const port = await freePort();
  const postgres = new EmbeddedPostgres({
    runtime,
    dataDir: path.join(dir, 'data'),
    port,
    password: randomBytes(12).toString('hex'),
    // A test server holds nothing worth a flush to disk: a crash of it fails the run either way. Without
    // these, every commit of every test waits on the disk (docs/performance.md#the-test-suites-budget).
    settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
  });
  await postgres.initialise();
  await postgres.start();
  globalThis.__EMBEDDED_POSTGRES__ = { postgres, dir };
  process.env.TEST_DATABASE_SERVER_URL = `${postgres.url}/postgres`;
  process.stdout.write(`\n[tests] no DATABASE_URL: embedded PostgreSQL on port ${port}\n`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
