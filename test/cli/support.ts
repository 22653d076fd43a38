import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { systemClock } from '../../kit/clock.js';
import { type EnvironmentName, loadConfig } from '../../kit/config.js';
import { dropDatabase, withDatabase } from '../../kit/database/databases.js';
import { createLogger } from '../../kit/logger.js';
import { type Environment, startEnvironment } from '../../embedded/environment.js';
import { createMigratedTestDatabase, testServerUrl } from '../support/database.js';
import { createMigratedDatabase } from '../support/database-template.js';
import { TEST_SECRET } from '../support/stack.js';

/**
 * The operator CLI as people run it: the built `cli/main.js` in a child process, on DATABASE_URL and
 * SECRET, checked against both environments served in-process on the same databases and secret.
 */

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export let buildDir: string;
export let dataDir: string;
export let database: { url: string; drop: () => Promise<void> };
export let sandboxName: string;
export let childEnv: NodeJS.ProcessEnv;
export const apps: Partial<Record<EnvironmentName, { environment: Environment; server: Server; baseUrl: string }>> = {};

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function cli(...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(buildDir, 'cli', 'main.js'), ...args], {
      cwd: ROOT,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', d => (stdout += d));
    child.stderr.on('data', d => (stderr += d));
    child.on('error', reject);
    child.on('close', code => resolve({ code, stdout, stderr }));
  });
}

/**
 * The CLI as a newcomer runs it from the project folder: `npx billing-cli …` (package.json's `bin`) or
 * `npm run -s cli -- …`, through the machine's npm, with stdout and stderr kept apart. The package is a
 * copy of the project's package.json and bin under the private build, whose build step is a stand-in
 * that prints what the real one prints, so the shared `dist/` is not rebuilt under other tests.
 */
export async function packagedCli(runner: 'npx' | 'npm', ...args: string[]): Promise<CliResult> {
  const dir = path.join(buildDir, 'package');
  // Once per build: the worker's next file imports this module with its own build (docs/testing.md).
  if (packaged?.dir !== dir) packaged = { dir, ready: writePackage(dir) };
  await packaged.ready;
  const command = runner === 'npx' ? ['npx', 'billing-cli', ...args] : ['npm', 'run', '-s', 'cli', '--', ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), { cwd: dir, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', d => (stdout += d));
    child.stderr.on('data', d => (stderr += d));
    child.on('error', reject);
    child.on('close', code => resolve({ code, stdout, stderr }));
  });
}

let packaged: { dir: string; ready: Promise<void> } | undefined;

async function writePackage(dir: string): Promise<void> {
  const project = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
  await mkdir(path.join(dir, 'bin'), { recursive: true });
  await mkdir(path.join(dir, 'scripts'), { recursive: true });
  const { name, version, type, bin, scripts } = project;
  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ name, version, type, bin, scripts: { cli: scripts.cli } }),
  );
  for (const file of Object.values(bin as Record<string, string>))
    await copyFile(path.join(ROOT, file), path.join(dir, file));
  await writeFile(path.join(dir, 'scripts', 'build.mjs'), "process.stdout.write('built 0 files into dist/\\n');\n");
  await symlink(buildDir, path.join(dir, 'dist'));
}

export async function cliJson(...args: string[]): Promise<Record<string, string>> {
  const result = await cli(...args, '--json');
  if (result.code !== 0) throw new Error(`cli ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, string>;
}

export function url(environment: EnvironmentName): string {
  return apps[environment]!.baseUrl;
}

export const slug = (label: string) => `${label}-${randomBytes(3).toString('hex')}`;

/** Registers this suite's setup and teardown; call it once at the top of each test file. */
export function useCliStack(): void {
  // Each CLI call is a new Node process loading the CLI: 1-2 s of CPU, which a loaded machine stretches
  // past a minute for a test of six calls (slower, not wrong).
  jest.setTimeout(300_000);
  beforeAll(async () => {
    // A private build: a concurrent `npm start` or build elsewhere in the tree cannot delete files under us.
    buildDir = path.join(ROOT, '.build', `cli-${process.pid}-${randomBytes(3).toString('hex')}`);
    execFileSync(process.execPath, ['scripts/build.mjs', '--out-dir', buildDir], { cwd: ROOT, stdio: 'pipe' });

    dataDir = await mkdtemp(path.join(os.tmpdir(), 'billing-cli-'));
    await chmod(dataDir, 0o755);
    // Copies of the migrated template (test/support/database-template.ts): the environments started below
    // and every CLI process find nothing to migrate, as on a server that has run before.
    database = await createMigratedTestDatabase('cli');
    // What the CLI (and `npm start`) use for the sandbox when only DATABASE_URL is given.
    sandboxName = `${new URL(database.url).pathname.slice(1)}_sandbox`;
    await createMigratedDatabase(testServerUrl(), sandboxName);

    childEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: database.url,
      SECRET: TEST_SECRET,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    };

    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
    const logger = createLogger('silent');
    const databaseUrls: Record<EnvironmentName, string> = {
      production: database.url,
      sandbox: withDatabase(database.url, sandboxName),
    };
    for (const name of ['production', 'sandbox'] as EnvironmentName[]) {
      const environment = await startEnvironment({
        name,
        config,
        databaseUrl: databaseUrls[name],
        secret: TEST_SECRET,
        clock: systemClock,
        logger,
      });
      const server = await new Promise<Server>(resolve => {
        const s = environment.app.listen(0, '127.0.0.1', () => resolve(s));
      });
      apps[name] = { environment, server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    }
  });
  afterAll(async () => {
    for (const app of Object.values(apps)) {
      app.server.closeAllConnections();
      await new Promise(resolve => app.server.close(resolve));
      await app.environment.close();
    }
    await database?.drop();
    if (sandboxName) await dropDatabase(testServerUrl(), sandboxName);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (buildDir) await rm(buildDir, { recursive: true, force: true });
  });
}
