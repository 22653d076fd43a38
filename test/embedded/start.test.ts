import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { call } from '../support/stack.js';
import { freePort } from '../support/ports.js';

/**
 * `npm start` with no configuration at all: the built embedded topology, run as a child process on a
 * fresh DATA_DIR with no DATABASE_URL, so it runs its own PostgreSQL. The CLI works against it while
 * it runs, data survives restarts, SIGTERM leaves nothing behind, and a SIGKILL is recovered from.
 */
jest.setTimeout(180_000);

const ROOT = path.resolve(import.meta.dirname, '..', '..');

let buildDir: string;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let ports: { production: number; sandbox: number; postgres: number };
let server: RunningServer | undefined;
const spawned = new Set<ChildProcess>();

interface RunningServer {
  child: ChildProcess;
  stdout: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const productionUrl = () => `http://127.0.0.1:${ports.production}`;
const sandboxUrl = () => `http://127.0.0.1:${ports.sandbox}`;

/** Starts `node <build>/embedded/main.js` and resolves once it has printed both URLs. */
function startServer(): Promise<RunningServer> {
  const child = spawn(process.execPath, [path.join(buildDir, 'embedded', 'main.js')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.add(child);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(resolve => {
    child.once('exit', (code, signal) => {
      spawned.delete(child);
      resolve({ code, signal });
    });
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start within 120 s:\n${stdout}\n${stderr}`)),
      120_000,
    );
    child.stdout!.on('data', chunk => {
      stdout += chunk;
      if (stdout.includes('Sandbox API:')) {
        clearTimeout(timer);
        resolve({ child, stdout: () => stdout, exited });
      }
    });
    child.stderr!.on('data', chunk => (stderr += chunk));
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited during start (code ${code}, signal ${signal}):\n${stdout}\n${stderr}`));
    });
  });
}

function runCli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(buildDir, 'cli', 'main.js'), ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    spawned.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', d => (stdout += d));
    child.stderr.on('data', d => (stderr += d));
    child.on('error', reject);
    child.on('close', code => {
      spawned.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const postmasterPidFile = () => path.join(dataDir, 'pg', 'postmaster.pid');

/** The pid of the embedded PostgreSQL, if its lock file names a live process. */
function livePostmaster(): number | undefined {
  if (!existsSync(postmasterPidFile())) return undefined;
  const pid = Number(readFileSync(postmasterPidFile(), 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise(r => setTimeout(r, 100));
  }
  return check();
}

async function stopServer(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const running = server!;
  server = undefined;
  running.child.kill(signal);
  return running.exited;
}

beforeAll(async () => {
  // A private build: a concurrent `npm start` or build elsewhere in the tree cannot delete files under us.
  buildDir = path.join(ROOT, '.build', `embedded-${process.pid}-${randomBytes(3).toString('hex')}`);
  execFileSync(process.execPath, ['scripts/build.mjs', '--out-dir', buildDir], { cwd: ROOT, stdio: 'pipe' });
  // As root the embedded PostgreSQL runs as the OS user `postgres`, which must be able to reach its folder.
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'billing-embedded-'));
  await chmod(dataDir, 0o755);
  ports = { production: await freePort(), sandbox: await freePort(), postgres: await freePort() };
  // Nothing inherited that the config reads (DATABASE_URL above all): the zero-configuration start.
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(ports.production),
    SANDBOX_PORT: String(ports.sandbox),
    EMBEDDED_PG_PORT: String(ports.postgres),
  };
  server = await startServer();
});

afterAll(async () => {
  for (const child of spawned) child.kill('SIGKILL');
  // A postmaster orphaned by a failed test: fast shutdown, then make sure.
  const orphan = dataDir ? livePostmaster() : undefined;
  if (orphan) {
    process.kill(orphan, 'SIGINT');
    if (!(await waitUntil(() => !isAlive(orphan), 15_000))) process.kill(orphan, 'SIGKILL');
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (buildDir) await rm(buildDir, { recursive: true, force: true });
});

let oat: string;
let organizationId: string;

test('prints the production and sandbox URLs', () => {
  expect(server!.stdout()).toContain(`Production API: ${productionUrl()}`);
  expect(server!.stdout()).toContain(`Sandbox API:    ${sandboxUrl()}`);
  expect(livePostmaster()).toBeDefined();
  expect(existsSync(path.join(dataDir, 'secrets.json'))).toBe(true);
});

test('both environments are live and ready; the sandbox says so', async () => {
  for (const base of [productionUrl(), sandboxUrl()]) {
    expect((await call(base, 'GET', '/healthz')).status).toBe(200);
    expect((await call(base, 'GET', '/readyz')).status).toBe(200);
  }
  expect((await call(sandboxUrl(), 'GET', '/healthz')).headers.get('x-polar-sandbox')).toBe('1');
  expect((await call(productionUrl(), 'GET', '/healthz')).headers.get('x-polar-sandbox')).toBeNull();
});

test('the banner and /readyz say which payment processor takes the money', async () => {
  // No Stripe key and no PAYMENT_PROCESSOR: production takes no payments; the sandbox uses the test processor.
  expect(server!.stdout()).toMatch(/Production Payments: not configured/);
  expect(server!.stdout()).toMatch(/Sandbox {4}Payments: test processor/);
  const production = (await call(productionUrl(), 'GET', '/readyz')).body;
  expect(production.payment_processor).toMatchObject({ name: 'none', takes_real_money: false });
  const sandbox = (await call(sandboxUrl(), 'GET', '/readyz')).body;
  expect(sandbox.payment_processor).toEqual({ name: 'test', takes_real_money: false, warning: null });
});

test('the CLI bootstraps against the running server with no extra configuration', async () => {
  const postmaster = livePostmaster();
  const result = await runCli(
    'bootstrap',
    '--email',
    'owner@example.com',
    '--password',
    'embedded password',
    '--org-name',
    'Embedded Org',
    '--org-slug',
    'embedded-org',
    '--json',
  );
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const output = JSON.parse(result.stdout) as Record<string, string>;
  oat = output.organization_access_token;
  organizationId = output.organization_id;

  const production = await call(productionUrl(), 'GET', '/v1/organizations/', { token: oat });
  expect(production.status).toBe(200);
  expect(production.body.items).toEqual([expect.objectContaining({ id: organizationId, slug: 'embedded-org' })]);

  const sandbox = await call(sandboxUrl(), 'GET', '/v1/organizations/', { token: oat });
  expect(sandbox.status).toBe(401);
  expect(sandbox.body.error).toBe('invalid_token');

  // The CLI used the server's database and left it running.
  expect(livePostmaster()).toBe(postmaster);
  expect((await call(productionUrl(), 'GET', '/readyz')).status).toBe(200);
});

test('SIGTERM stops the server and its PostgreSQL cleanly', async () => {
  const postmaster = livePostmaster()!;
  const { code, signal } = await stopServer('SIGTERM');
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  expect(isAlive(postmaster)).toBe(false);
  expect(livePostmaster()).toBeUndefined();
  expect(existsSync(postmasterPidFile())).toBe(false);
  expect(existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
});

test('the CLI runs PostgreSQL for its own duration when no server is running', async () => {
  const result = await runCli(
    'user:create',
    '--email',
    'offline@example.com',
    '--password',
    'offline password',
    '--json',
  );
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toEqual({ user_id: expect.any(String) });
  expect(livePostmaster()).toBeUndefined();
});

test('data persists across a clean restart', async () => {
  server = await startServer();
  const response = await call(productionUrl(), 'GET', '/v1/organizations/', { token: oat });
  expect(response.status).toBe(200);
  expect(response.body.items.map((o: { id: string }) => o.id)).toEqual([organizationId]);
});

test('after a SIGKILL the orphaned PostgreSQL is handled and the next start succeeds', async () => {
  const postmaster = livePostmaster()!;
  expect(postmaster).toBeDefined();
  const { signal } = await stopServer('SIGKILL');
  expect(signal).toBe('SIGKILL');
  // The server could not stop its database: the postmaster outlives it.
  expect(isAlive(postmaster)).toBe(true);

  server = await startServer();
  expect(await waitUntil(() => !isAlive(postmaster), 5_000)).toBe(true);
  expect(livePostmaster()).toBeDefined();
  expect((await call(productionUrl(), 'GET', '/readyz')).status).toBe(200);
  expect((await call(productionUrl(), 'GET', '/v1/organizations/', { token: oat })).status).toBe(200);

  const { code } = await stopServer('SIGTERM');
  expect(code).toBe(0);
  expect(livePostmaster()).toBeUndefined();
});
