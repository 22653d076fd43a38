import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The README's first scripts for both SDK lines ("Polar's SDKs"), run as they are written there: each
 * `js` block is written to a file and run by node against the sandbox of a test stack. The only edits are
 * the base URL (the README's sandbox port, here a random one) and the 1.x import path, which this
 * repository installs under the alias `@polar-sh/sdk-1` beside 0.48.1. The webhook blocks get the real
 * deliveries of the product the first script creates, each from an endpoint of its line's kind.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const dir = path.join(ROOT, '.build', `readme-scripts-${process.pid}`);

let stack: TestStack;
let tenant: Tenant;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await sharedTestStack();
  tenant = await createTenant(stack.sandbox);
  receiver = await new WebhookReceiver().start();
  await mkdir(dir, { recursive: true });
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The `js` blocks of the README's "Polar's SDKs" section, in order. */
async function readmeBlocks(): Promise<string[]> {
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf("### Polar's SDKs");
  const section = readme.slice(start, readme.indexOf('\n## ', start));
  return [...section.matchAll(/```js\n([\s\S]*?)```/g)].map(m => m[1]);
}

async function runBlock(name: string, code: string, env: Record<string, string> = {}): Promise<string> {
  const file = path.join(dir, `${name}.mjs`);
  await writeFile(
    file,
    code
      .replaceAll('http://127.0.0.1:8001', stack.sandbox.baseUrl)
      .replace(/'@polar-sh\/sdk\/(\d{4}-\d{2})'/g, "'@polar-sh/sdk-1/$1'"),
  );
  const { stdout } = await run(process.execPath, [file], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, POLAR_ACCESS_TOKEN: tenant.oat, ...env },
    timeout: 60_000,
  });
  return stdout;
}

/** A webhook block's `onWebhook`, called with a received delivery; prints what it returns. */
async function runWebhookBlock(name: string, code: string, secret: string, hook: { body: string; headers: object }) {
  await runBlock(`${name}-handler`, code);
  const caller = `import { onWebhook } from './${name}-handler.mjs';
const hook = ${JSON.stringify({ body: hook.body, headers: hook.headers })};
console.log(await onWebhook(hook.body, hook.headers));\n`;
  return runBlock(name, caller, { POLAR_WEBHOOK_SECRET: secret });
}

it("runs the README's scripts for SDK 1.x and 0.4x as written, and their webhook handlers verify real deliveries", async () => {
  const blocks = await readmeBlocks();
  expect(blocks).toHaveLength(4);
  const [v1Script, v1Webhook, v0Script, v0Webhook] = blocks;
  const endpoint = async (urlPath: string, apiVersion?: string) => {
    const created = await call(stack.sandbox.baseUrl, 'POST', '/v1/webhooks/endpoints', {
      token: tenant.oat,
      body: { url: receiver.url(urlPath), format: 'raw', events: ['product.created'], api_version: apiVersion },
    });
    expect(created.status).toBe(201);
    return created.body.secret as string;
  };
  const versionedSecret = await endpoint('/v1', '2026-10');
  const unversionedSecret = await endpoint('/v0');

  expect(await runBlock('v1-script', v1Script)).toContain("[ 'Pro' ] true");
  expect(await runBlock('v0-script', v0Script)).toContain("[ 'Pro' ]");

  await receiver.until(() => receiver.on('/v1').length > 0 && receiver.on('/v0').length > 0, 'product.created twice');
  const [versioned] = receiver.on('/v1');
  const [unversioned] = receiver.on('/v0');
  expect(JSON.parse(versioned.body)).toMatchObject({ type: 'product.created', api_version: '2026-10' });
  expect((await runWebhookBlock('v1-webhook', v1Webhook, versionedSecret, versioned)).trim()).toBe('product.created');
  expect((await runWebhookBlock('v0-webhook', v0Webhook, unversionedSecret, unversioned)).trim()).toBe(
    'product.created',
  );
  // A handler refuses what the secret did not sign.
  await expect(runWebhookBlock('v1-forged', v1Webhook, unversionedSecret, versioned)).rejects.toThrow();
}, 180_000);
