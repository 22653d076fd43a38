import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import { Webhook } from 'standardwebhooks';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { call, createTenant, startTestStack, TEST_SECRET, type TestStack } from '../support/stack.js';

/**
 * `cli listen` as an operator runs it (the built cli/main.js in a child process, on the server's
 * databases): it forwards the organization's new events to a local URL, signed with the secret it prints.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let buildDir: string;
let stack: TestStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  const out = path.join('.build', `cli-listen-${process.pid}-${randomBytes(3).toString('hex')}`);
  execFileSync(process.execPath, ['scripts/build.mjs', '--out-dir', out], { cwd: ROOT, stdio: 'pipe' });
  buildDir = existsSync(path.join(ROOT, out, 'cli', 'main.js')) ? path.join(ROOT, out) : path.join(ROOT, 'dist');
  stack = await startTestStack('cli_listen');
  receiver = await new WebhookReceiver().start();
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await stack?.close();
  if (buildDir && !buildDir.endsWith(`${path.sep}dist`)) await rm(buildDir, { recursive: true, force: true });
});

it('forwards new events of one organization, signed, and stops after --max-events', async () => {
  const env = stack.sandbox;
  const tenant = await createTenant(env);
  const urls = {
    production: (stack.production.environment.webhooks.orm.config.get('clientUrl') as string) ?? '',
    sandbox: (env.environment.webhooks.orm.config.get('clientUrl') as string) ?? '',
  };
  const child = spawn(
    process.execPath,
    [
      path.join(buildDir, 'cli', 'main.js'),
      'listen',
      '--forward-to',
      receiver.url('/local'),
      '--organization',
      tenant.organizationId,
      '--max-events',
      '2',
      '--env',
      'sandbox',
      '--json',
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        LOG_LEVEL: 'silent',
        DATABASE_URL: urls.production,
        SANDBOX_DATABASE_URL: urls.sandbox,
        SECRET: TEST_SECRET,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', d => (stdout += d));
  child.stderr.on('data', d => (stderr += d));
  const exited = new Promise<number | null>(resolve => child.on('close', resolve));
  for (let i = 0; i < 200 && !stdout.includes('Ready'); i++) await new Promise(r => setTimeout(r, 100));
  expect([stdout, stderr]).toEqual([expect.stringContaining('Ready (sandbox)'), expect.anything()]);
  const secret = /signing secret (whsec_\S+)/.exec(stdout)![1];

  for (const name of ['One', 'Two']) {
    const res = await call(env.baseUrl, 'POST', '/v1/customers/', {
      token: tenant.oat,
      body: { email: `${name.toLowerCase()}-${Date.now()}@example.com`, name },
    });
    expect(res.status).toBe(201);
  }
  expect(await exited).toBe(0);
  const forwarded = receiver.on('/local');
  expect(forwarded.map(r => JSON.parse(r.body).data.name)).toEqual(['One', 'Two']);
  for (const r of forwarded) {
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    expect(validateEvent(r.body, r.headers as Record<string, string>, secret).type).toBe('customer.created');
  }
  expect(JSON.parse(stdout.trim().split('\n').pop()!)).toMatchObject({ forwarded: 2, secret });
}, 60_000);
