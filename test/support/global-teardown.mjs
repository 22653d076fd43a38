import { rm } from 'node:fs/promises';

export default async function globalTeardown() {
  const embedded = globalThis.__EMBEDDED_POSTGRES__;
  if (!embedded) return;
  await embedded.postgres.stop();
  await rm(embedded.dir, { recursive: true, force: true });
}
