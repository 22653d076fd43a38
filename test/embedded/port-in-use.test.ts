import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../support/ports.js';

/**
 * A start that finds one of its three ports taken (production, sandbox, the embedded PostgreSQL's)
 * prints one line naming the port, who holds it, and the variable that moves it, exits non-zero, and
 * leaves nothing running: no stack trace, no PostgreSQL log, no server that serves one port of two.
 */
jest.setTimeout(180_000);

const ROOT = path.resolve(import.meta.dirname, '..', '..');
let buildDir: string;
let holder: net.Server;
let takenPort: number;
const dataDirs: string[] = [];

beforeAll(async () => {
  buildDir = path.join(ROOT, '.build', `port-in-use-${process.pid}-${randomBytes(3).toString('hex')}`);
  execFileSync(process.execPath, ['scripts/build.mjs', '--out-dir', buildDir], { cwd: ROOT, stdio: 'pipe' });
  // This test's own process holds the port, so the message can name it.
  holder = net.createServer();
  await new Promise<void>(resolve => holder.listen(0, '127.0.0.1', resolve));
  takenPort = (holder.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await new Promise(resolve => holder?.close(resolve));
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  if (buildDir) await rm(buildDir, { recursive: true, force: true });
});

/** Starts the built server with `taken` on one port; resolves with its exit code and output. */
async function startWith(taken: 'PORT' | 'SANDBOX_PORT' | 'EMBEDDED_PG_PORT') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'billing-port-in-use-'));
  await chmod(dataDir, 0o755); // as root, the embedded PostgreSQL runs as `postgres` and must reach it
  dataDirs.push(dataDir);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    SANDBOX_PORT: String(await freePort()),
    EMBEDDED_PG_PORT: String(await freePort()),
    [taken]: String(takenPort),
  };
  const child = spawn(process.execPath, [path.join(buildDir, 'embedded', 'main.js')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', chunk => (stdout += chunk));
  child.stderr!.on('data', chunk => (stderr += chunk));
  const code = await new Promise<number | null>(resolve => child.once('exit', resolve));
  return { code, stdout, stderr, dataDir };
}

test.each([
  ['PORT', 'production'],
  ['SANDBOX_PORT', 'sandbox'],
  ['EMBEDDED_PG_PORT', "the embedded PostgreSQL's"],
] as const)('%s taken: one line that names the port, its holder and the variable; exit 1', async (variable, what) => {
  const { code, stdout, stderr, dataDir } = await startWith(variable);
  expect(code).toBe(1);
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    new RegExp(
      `^Port ${takenPort} \\(${what}\\) is already in use by pid ${process.pid} \\(.+\\): set ${variable} to a free port\\.$`,
    ),
  );
  expect(stdout).not.toContain('Sandbox API:');
  // Nothing left running: the PostgreSQL it may have started is stopped and the server's lock is gone.
  expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  expect(existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
});
