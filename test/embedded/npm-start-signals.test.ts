import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../support/ports.js';

/**
 * A process manager stops `npm start` by signalling the npm process. npm passes the signal to its
 * script's process; the script must therefore BE the server (`exec`), not a shell waiting for it, or
 * the shell dies and the server and its PostgreSQL run on as orphans.
 *
 * The script run is package.json's own `start`, through the machine's npm, with two substitutions so
 * the test does not rebuild the shared `dist/` under other tests: the build step is skipped and the
 * server comes from a private build. Its package sits inside the project, so npm puts the project's
 * `node_modules/.bin` (the pinned Node) on the script's PATH as it does for `npm start`.
 */
jest.setTimeout(180_000);

const ROOT = path.resolve(import.meta.dirname, '..', '..');
let workDir: string;
let dataDir: string;
let npm: ChildProcess | undefined;

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const pidIn = (file: string): number | undefined =>
  existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise(r => setTimeout(r, 100));
  }
  return check();
}

beforeAll(async () => {
  workDir = path.join(ROOT, '.build', `npm-start-${process.pid}-${randomBytes(3).toString('hex')}`);
  const buildDir = path.join(workDir, 'dist');
  execFileSync(process.execPath, ['scripts/build.mjs', '--out-dir', buildDir], { cwd: ROOT, stdio: 'pipe' });
  const start: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  expect(start).toContain('node scripts/build.mjs && ');
  const script = start.replace('node scripts/build.mjs && ', '');
  await mkdir(workDir, { recursive: true });
  await writeFile(
    path.join(workDir, 'package.json'),
    JSON.stringify({ name: 'npm-start-signals', private: true, scripts: { start: script } }),
  );
  // As root the embedded PostgreSQL runs as the OS user `postgres`, which must be able to reach its folder.
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'billing-npm-start-'));
  await chmod(dataDir, 0o755);
});

afterAll(async () => {
  if (npm && npm.exitCode === null) npm.kill('SIGKILL');
  // A failed run must not leave its own orphans behind either.
  for (const file of [path.join(dataDir, 'server.pid'), path.join(dataDir, 'pg', 'postmaster.pid')]) {
    const pid = pidIn(file);
    if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  await rm(workDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
});

test('SIGTERM to the npm process drains the server and stops its PostgreSQL: no orphans', async () => {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    SANDBOX_PORT: String(await freePort()),
    EMBEDDED_PG_PORT: String(await freePort()),
  };
  const child = spawn('npm', ['start'], { cwd: workDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  npm = child;
  let output = '';
  child.stdout!.on('data', chunk => (output += chunk));
  child.stderr!.on('data', chunk => (output += chunk));
  const exited = new Promise<void>(resolve => child.once('exit', () => resolve()));
  expect(await waitUntil(() => output.includes('Sandbox API:'), 120_000)).toBe(true);

  const server = pidIn(path.join(dataDir, 'server.pid'))!;
  const postmaster = pidIn(path.join(dataDir, 'pg', 'postmaster.pid'))!;
  expect([isAlive(server), isAlive(postmaster)]).toEqual([true, true]);
  // The script's process is the server itself: its parent is npm, not a shell (Linux's /proc).
  const parent = Number(readFileSync(`/proc/${server}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  expect(parent).toBe(child.pid);

  child.kill('SIGTERM');
  await exited;
  expect(await waitUntil(() => !isAlive(server) && !isAlive(postmaster), 30_000)).toBe(true);
  expect(output).toContain('shutting down');
  expect(existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
  expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
});
