import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stopOrphanPostmaster } from './embedded-postgres.js';
import { canReach, mkdirReachable, type PostgresOsUser, ROOT_STATE_DIR } from './embedded-postgres-runtime.js';

/**
 * The folder of the embedded cluster that belongs to `dataDir` (an absolute DATA_DIR).
 *
 * It is `DATA_DIR/pg`, unless running as root with a DATA_DIR the OS user `postgres` cannot reach
 * (a project in /root, mode 0700): then the cluster lives in ROOT_STATE_DIR/clusters/<hash of DATA_DIR>
 * and `DATA_DIR/pg` is a symbolic link to it. That link is the record: the CLI, a restart after a
 * SIGKILL, or a start after the folder became reachable all find the same cluster through it, and
 * deleting DATA_DIR (the link included) starts afresh, as it does for a cluster kept inside DATA_DIR.
 */
export async function embeddedClusterDir(dataDir: string, user: PostgresOsUser | undefined): Promise<string> {
  const inPlace = path.join(dataDir, 'pg');
  const entry = await lstat(inPlace).catch(() => undefined);
  if (entry?.isSymbolicLink()) return path.resolve(dataDir, await readlink(inPlace));
  if (!user) return inPlace;
  if (entry?.isDirectory() && existsSync(path.join(inPlace, 'PG_VERSION'))) {
    if (canReach(user, inPlace)) return inPlace;
    throw new Error(
      `The OS user "postgres" cannot reach the PostgreSQL data in ${inPlace}: make the folders above it searchable by that user (chmod o+x), move DATA_DIR, or set DATABASE_URL.`,
    );
  }
  if (canReach(user, dataDir)) return inPlace;

  const home = path.join(ROOT_STATE_DIR, 'clusters', createHash('sha256').update(dataDir).digest('hex').slice(0, 16));
  // A cluster already there belonged to a DATA_DIR at this same path that has since been deleted
  // (with its secrets, so its password is lost): it is replaced, as a deleted DATA_DIR/pg would be.
  await stopOrphanPostmaster(path.join(home, 'pg'));
  await rm(home, { recursive: true, force: true });
  try {
    await mkdirReachable(home);
  } catch (error) {
    throw new Error(
      `The OS user "postgres" cannot reach ${dataDir}, and ${home} could not be made (${(error as Error).message}). Set DATA_DIR to a folder that user can reach, or set DATABASE_URL.`,
    );
  }
  await writeFile(path.join(home, 'DATA_DIR'), `${dataDir}\n`);
  // Whatever a failed first start left (an empty pg/ from before this design) makes way for the link.
  await rm(inPlace, { recursive: true, force: true });
  await symlink(path.join(home, 'pg'), inPlace);
  return path.join(home, 'pg');
}
