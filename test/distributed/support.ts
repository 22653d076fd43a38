import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IdentityRuntime } from '../../subgraphs/identity/runtime.js';
import { createMigratedTestDatabase } from '../support/database.js';
import { freePort } from '../support/embedded-server.js';
import { createTenant, identityAdminOn, TEST_SECRET, type Tenant } from '../support/stack.js';
import { generateKeyPairSync } from 'node:crypto';

/**
 * The distributed topology as users deploy it: identity, gateway and REST adapter each a separate
 * `node <build>/<part>/main.js` process on loopback, one environment, sharing DATABASE_URL, SECRET and
 * INTERNAL_KEY. Requests go REST adapter → (signed) identity for the principal, → (signed) gateway →
 * (re-signed) identity subgraph; the subgraph and the gateway refuse anything unsigned. The pages and
 * the OAuth endpoints go REST adapter → (signed JSON RPC) identity's published contracts.
 */

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const INTERNAL_KEY = `internal-${randomBytes(24).toString('hex')}`;
export const START_TIMEOUT_MS = 60_000;
export const PUBLIC_URL = 'https://api.billing.example';
export const PASSWORD = 'correct horse battery'; // what createTenant gives its users
/** Stands in for GitHub's secret-scanning signing key. */
export const GITHUB_KEY = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
export const GITHUB_KEYS = JSON.stringify({
  public_keys: [{ key_identifier: 'k1', key: GITHUB_KEY.publicKey.export({ type: 'spki', format: 'pem' }) }],
});

export interface Part {
  name: string;
  child: ChildProcess;
  url: string;
  /** Its Prometheus endpoint (every part runs one, on a port of its own: METRICS_PORT=0). */
  metricsUrl: string;
  output: string[];
  exit: Promise<number | null>;
}

export let buildDir: string;
export let database: { url: string; drop: () => Promise<void> };
export let identityRuntime: IdentityRuntime | undefined;
export const parts: Part[] = [];
export let identity: Part;
export let gateway: Part;
export let rest: Part;
export let alice: Tenant;
export let bob: Tenant;
/** Settings every part of this file's stack gets on top of its own (`useDistributedStack`'s argument). */
let extraEnv: () => Record<string, string> = () => ({});
/**
 * Every part's process from its spawn to its exit, whether it came to listen or not: `stopAll` stops them
 * all, so that none outlives the file (its pipes would keep the Jest worker from exiting).
 */
const running = new Map<ChildProcess, Promise<number | null>>();
/** Set by `stopAll`: a part that a set-up still starts afterwards (one that ran past its time-out) is killed at once. */
let stopped = false;

/** Builds once into a private folder (a concurrent `npm start` or build cannot delete files under us). */
export function build(): string {
  const out = path.join('.build', `distributed-${process.pid}-${randomBytes(3).toString('hex')}`);
  execFileSync(process.execPath, ['scripts/build.mjs', '--out-dir', out], { cwd: ROOT, stdio: 'pipe' });
  const dir = path.join(ROOT, out);
  if (existsSync(path.join(dir, 'gateway', 'main.js'))) return dir;
  // A build script without --out-dir wrote to dist/.
  return path.join(ROOT, 'dist');
}

/** Removes what `build()` made (never dist/, which it answers when the build script took no --out-dir). */
export async function removeBuild(dir: string | undefined): Promise<void> {
  if (dir && !dir.endsWith(`${path.sep}dist`)) await rm(dir, { recursive: true, force: true });
}

/**
 * Starts `<build>/<entry>` with PORT=0 and resolves once it logs the port it listens on, or, for a part
 * that serves nothing (the webhook worker), once it logs `readyMessage` (its `url` is then empty).
 * `dir`: the build to run, when not this file's stack's (test/many-replicas builds its own).
 */
export function startPart(
  name: string,
  entry: string,
  env: Record<string, string>,
  readyMessage?: string,
  dir = buildDir,
): Promise<Part> {
  const child = spawn(process.execPath, [path.join(dir, entry)], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: '0',
      ENVIRONMENT: 'production',
      INTERNAL_KEY,
      DATA_DIR: path.join(dir, 'data'),
      METRICS_PORT: '0',
      ...extraEnv(),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exit = new Promise<number | null>(resolve =>
    child.once('exit', code => {
      running.delete(child);
      resolve(code);
    }),
  );
  running.set(child, exit);
  if (stopped) child.kill('SIGKILL');
  return new Promise<Part>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start in time:\n${output.join('\n')}`));
    }, START_TIMEOUT_MS);
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        output.push(line);
        try {
          const entry = JSON.parse(line) as { msg?: string; port?: number; metricsPort?: number };
          if ((entry.msg === 'listening' && entry.port) || (readyMessage && entry.msg === readyMessage)) {
            clearTimeout(timer);
            const url = entry.port ? `http://127.0.0.1:${entry.port}` : '';
            const metricsUrl = `http://127.0.0.1:${entry.metricsPort}/metrics`;
            const part = { name, child, url, metricsUrl, output, exit };
            parts.push(part);
            resolve(part);
          }
        } catch {
          // not a log line
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    void exit.then(code => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before listening:\n${output.join('\n')}`));
    });
  });
}

export async function waitFor(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} never became healthy`);
    await new Promise(resolve => setTimeout(resolve, 200));
  }
}

/**
 * Called by a file's set-up before it starts parts: this module outlives the file, and the worker's next
 * file imports it as this one left it (docs/testing.md), stopped, with the last file's parts listed.
 */
export function beginParts(): void {
  stopped = false;
  parts.length = 0;
}

/** SIGTERM to every part still running (SIGKILL after 15 s), started or still starting; resolves once all have exited. */
export async function stopAll(): Promise<void> {
  stopped = true;
  await Promise.all(
    [...running].map(async ([child, exit]) => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exit;
      clearTimeout(timer);
    }),
  );
}

/** On failure, the children's logs say why. */
export function logsOf(part: Part): string {
  return `--- ${part.name} ---\n${part.output.slice(-40).join('\n')}`;
}

/**
 * Registers this suite's setup and teardown; call it once at the top of each test file. `env`, read when
 * the stack starts (after the file's own earlier `beforeAll`s), adds settings to every part.
 */
export function useDistributedStack(partEnv: () => Record<string, string> = () => ({})): void {
  beforeAll(async () => {
    beginParts();
    extraEnv = partEnv;
    buildDir = build();
    database = await createMigratedTestDatabase('distributed');
    // Identity e-mails the owners of revoked tokens through billing, which starts after it: billing's
    // port is chosen now.
    const billingPort = await freePort();
    identity = await startPart('identity', 'subgraphs/identity/main.js', {
      DATABASE_URL: database.url,
      SECRET: TEST_SECRET,
      BILLING_URL: `http://127.0.0.1:${billingPort}`,
    });
    // The webhooks subgraph; deliveries are sent by its own worker process, started after billing.
    const webhooks = await startPart('webhooks', 'subgraphs/webhooks/main.js', {
      DATABASE_URL: database.url,
      SECRET: TEST_SECRET,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', // the tests' receivers are on loopback
      WEBHOOK_WORKER: 'false',
    });
    const billing = await startPart('billing', 'subgraphs/billing/main.js', {
      PORT: String(billingPort),
      DATABASE_URL: database.url,
      SECRET: TEST_SECRET,
      PUBLIC_URL,
      WEBHOOKS_URL: webhooks.url,
      IDENTITY_URL: identity.url,
    });
    // As docker-compose.yml runs it: loopback targets allowed for the tests' receivers, owners of the
    // endpoints it disables e-mailed through billing (signed RPC), and fast retries so that a failing
    // endpoint is disabled within a test.
    await startPart(
      'webhook-worker',
      'subgraphs/webhooks/worker.js',
      {
        DATABASE_URL: database.url,
        BILLING_URL: billing.url,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_RETRY_BASE_MS: '2',
        WEBHOOK_RETRY_MAX_MS: '10',
      },
      'webhook worker started',
    );
    gateway = await startPart('gateway', 'gateway/main.js', {
      IDENTITY_URL: identity.url,
      BILLING_URL: billing.url,
      WEBHOOKS_URL: webhooks.url,
    });
    rest = await startPart('rest-adapter', 'rest-adapter/main.js', {
      GATEWAY_URL: gateway.url,
      IDENTITY_URL: identity.url,
      BILLING_URL: billing.url,
      PUBLIC_URL: PUBLIC_URL,
      GITHUB_SECRET_SCANNING_KEYS: GITHUB_KEYS,
    });
    await Promise.all([
      waitFor(`${identity.url}/readyz`),
      waitFor(`${gateway.url}/readyz`),
      waitFor(`${rest.url}/readyz`),
    ]);

    // Tenants are created the way the CLI does it: an IdentityAdmin on the same database and SECRET.
    const cli = await identityAdminOn(database.url);
    identityRuntime = cli.runtime;
    alice = await createTenant(cli);
    bob = await createTenant(cli);
  }, 240_000);
  afterAll(async () => {
    await stopAll();
    await identityRuntime?.close();
    identityRuntime = undefined;
    await database?.drop();
    await removeBuild(buildDir);
  }, 60_000);
}
