import { jest } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { systemClock } from '../../kit/clock.js';
import { type EnvironmentName, loadConfig } from '../../kit/config.js';
import { dropDatabase, ensureDatabase, withDatabase } from '../../kit/database/databases.js';
import { createLogger } from '../../kit/logger.js';
import { ALL_SCOPES } from '../../kit/scopes.js';
import { type Environment, startEnvironment } from '../../embedded/environment.js';
import { createTestDatabase, testServerUrl } from '../support/database.js';
import { call, TEST_SECRET } from '../support/stack.js';

/**
 * The operator CLI as people run it: the built `cli/main.js` in a child process, on DATABASE_URL and
 * SECRET, checked against both environments served in-process on the same databases and secret.
 */
jest.setTimeout(120_000);

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let buildDir: string;
let dataDir: string;
let database: { url: string; drop: () => Promise<void> };
let sandboxName: string;
let childEnv: NodeJS.ProcessEnv;
const apps: Partial<Record<EnvironmentName, { environment: Environment; server: Server; baseUrl: string }>> = {};

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(...args: string[]): Promise<CliResult> {
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

async function cliJson(...args: string[]): Promise<Record<string, string>> {
  const result = await cli(...args, '--json');
  if (result.code !== 0) throw new Error(`cli ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, string>;
}

function url(environment: EnvironmentName): string {
  return apps[environment]!.baseUrl;
}

const slug = (label: string) => `${label}-${randomBytes(3).toString('hex')}`;

beforeAll(async () => {
  // A private build: a concurrent `npm start` or build elsewhere in the tree cannot delete files under us.
  buildDir = path.join(ROOT, '.build', `cli-${process.pid}-${randomBytes(3).toString('hex')}`);
  execFileSync(process.execPath, ['scripts/build.mjs', '--out-dir', buildDir], { cwd: ROOT, stdio: 'pipe' });

  dataDir = await mkdtemp(path.join(os.tmpdir(), 'billing-cli-'));
  await chmod(dataDir, 0o755);
  database = await createTestDatabase('cli');
  // What the CLI (and `npm start`) use for the sandbox when only DATABASE_URL is given.
  sandboxName = `${new URL(database.url).pathname.slice(1)}_sandbox`;
  await ensureDatabase(testServerUrl(), sandboxName);

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

describe('help and usage errors', () => {
  test('--help lists every command and exits 0', async () => {
    const result = await cli('--help');
    expect(result.code).toBe(0);
    for (const command of ['bootstrap', 'token:create', 'token:revoke', 'user:create', 'org:create', 'member:add']) {
      expect(result.stdout).toContain(command);
    }
  });

  test("a command's --help shows its options", async () => {
    const result = await cli('token:create', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--kind pat|oat');
    expect(result.stdout).toContain('organizations:read');
  });

  test.each([
    [['bootstrap', '--email', 'a@example.com', '--org-name', 'Acme', '--org-slug', 'acme'], /--password is required/],
    [
      [
        'bootstrap',
        '--email',
        'a@example.com',
        '--password',
        'long enough',
        '--org-name',
        'Acme',
        '--org-slug',
        'acme',
        '--bogus',
      ],
      /Unknown option '--bogus'/,
    ],
    [['bootstrap', '--email'], /--email/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [
      ['user:create', '--email', 'a@example.com', '--password', 'long enough', '--env', 'staging'],
      /--env must be production or sandbox/,
    ],
    [
      [
        'token:create',
        '--kind',
        'oat',
        '--organization',
        '7c3c1a8e-5d6b-4c1e-9a55-0f3a2b1c4d5e',
        '--scopes',
        'organizations:read teleport:write',
      ],
      /unknown scope: teleport:write/,
    ],
    [
      ['token:create', '--kind', 'oat', '--organization', 'not-an-id', '--scopes', 'all'],
      /--organization must be an id/,
    ],
    [['token:create', '--kind', 'pat', '--scopes', 'all'], /exactly one of --user ID or --email E/],
    [
      [
        'token:create',
        '--kind',
        'oat',
        '--organization',
        '7c3c1a8e-5d6b-4c1e-9a55-0f3a2b1c4d5e',
        '--scopes',
        'all',
        '--expires-in',
        '30 days',
      ],
      /ISO 8601 duration/,
    ],
    [
      [
        'member:add',
        '--organization',
        '7c3c1a8e-5d6b-4c1e-9a55-0f3a2b1c4d5e',
        '--email',
        'a@example.com',
        '--role',
        'emperor',
      ],
      /--role must be one of owner, admin, member/,
    ],
  ])('%j is a usage error (exit 2, one line on stderr)', async (args, message) => {
    const result = await cli(...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  test('no command at all prints the help on stderr and exits 2', async () => {
    const result = await cli();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Commands:');
  });
});

describe('bootstrap', () => {
  let output: Record<string, string>;
  const orgSlug = slug('acme');
  const password = 'bootstrap password';

  beforeAll(async () => {
    const result = await cli(
      'bootstrap',
      '--email',
      `owner-${orgSlug}@example.com`,
      '--password',
      password,
      '--org-name',
      'Acme Inc',
      '--org-slug',
      orgSlug,
      '--json',
    );
    expect(result.code).toBe(0);
    // Exactly one JSON line on stdout; nothing (certainly no password or secret) on stderr.
    expect(result.stdout.endsWith('\n')).toBe(true);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain(password);
    expect(result.stdout).not.toContain(TEST_SECRET);
    output = JSON.parse(result.stdout) as Record<string, string>;
  });

  test('prints the user, organization and both tokens', () => {
    expect(Object.keys(output).sort()).toEqual([
      'organization_access_token',
      'organization_id',
      'personal_access_token',
      'user_id',
    ]);
    expect(output.user_id).toMatch(UUID);
    expect(output.organization_id).toMatch(UUID);
    expect(output.personal_access_token).toMatch(/^polar_pat_[0-9A-Za-z]{43}$/);
    expect(output.organization_access_token).toMatch(/^polar_oat_[0-9A-Za-z]{43}$/);
  });

  test('the organization access token works against the server on the same database and SECRET', async () => {
    const response = await call(url('production'), 'GET', '/v1/organizations/', {
      token: output.organization_access_token,
    });
    expect(response.status).toBe(200);
    expect(response.body.items).toEqual([
      expect.objectContaining({ id: output.organization_id, slug: orgSlug, name: 'Acme Inc' }),
    ]);
  });

  test('the personal access token acts for the owner', async () => {
    const response = await call(url('production'), 'GET', `/v1/organizations/${output.organization_id}`, {
      token: output.personal_access_token,
    });
    expect(response.status).toBe(200);
    expect(response.body.slug).toBe(orgSlug);
  });

  test('production tokens are invalid_token in the sandbox', async () => {
    const response = await call(url('sandbox'), 'GET', '/v1/organizations/', {
      token: output.organization_access_token,
    });
    expect(response.status).toBe(401);
    expect(response.body.error).toBe('invalid_token');
  });

  test('without --json it prints a summary for a person', async () => {
    const s = slug('human');
    const result = await cli(
      'bootstrap',
      '--email',
      `${s}@example.com`,
      '--password',
      password,
      '--org-name',
      'Human Org',
      '--org-slug',
      s,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('organization access token');
    expect(result.stdout).toMatch(/polar_oat_\w+/);
    expect(result.stdout).not.toContain(password);
  });

  test('a taken slug fails in one line (exit 1) and creates no user', async () => {
    const email = `late-${orgSlug}@example.com`;
    const result = await cli(
      'bootstrap',
      '--email',
      email,
      '--password',
      password,
      '--org-name',
      'Copycat',
      '--org-slug',
      orgSlug,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/slug: An organization with this slug already exists/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    // The e-mail is still free: nothing was half-created.
    expect((await cli('user:create', '--email', email, '--password', password)).code).toBe(0);
  });

  test('a bad password is a one-line failure', async () => {
    const s = slug('weak');
    const result = await cli(
      'bootstrap',
      '--email',
      `${s}@example.com`,
      '--password',
      'short',
      '--org-name',
      'Weak',
      '--org-slug',
      s,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/password: String should have at least 8 characters/);
    expect(result.stderr).not.toContain('short');
  });
});

describe('tokens', () => {
  let organizationId: string;
  let ownerEmail: string;

  beforeAll(async () => {
    const s = slug('tokens');
    ownerEmail = `${s}@example.com`;
    ({ organization_id: organizationId } = await cliJson(
      'bootstrap',
      '--email',
      ownerEmail,
      '--password',
      'tokens password',
      '--org-name',
      'Token Org',
      '--org-slug',
      s,
    ));
  });

  test('token:create --kind oat with chosen scopes', async () => {
    const { token } = await cliJson(
      'token:create',
      '--kind',
      'oat',
      '--organization',
      organizationId,
      '--scopes',
      'organizations:read products:read',
      '--expires-in',
      'P30D',
    );
    expect(token).toMatch(/^polar_oat_/);
    const response = await call(url('production'), 'GET', '/v1/organizations/', { token });
    expect(response.status).toBe(200);
    expect(response.body.items.map((o: { id: string }) => o.id)).toEqual([organizationId]);
  });

  test('an oat without organizations:read is refused by the API for that scope', async () => {
    const { token } = await cliJson(
      'token:create',
      '--kind',
      'oat',
      '--organization',
      organizationId,
      '--scopes',
      'products:read',
    );
    const response = await call(url('production'), 'GET', '/v1/organizations/', { token });
    expect(response.status).toBe(403);
    expect(response.body.error).toBe('insufficient_scope');
  });

  test('token:create --kind pat --email', async () => {
    const { token } = await cliJson('token:create', '--kind', 'pat', '--email', ownerEmail, '--scopes', 'all');
    expect(token).toMatch(/^polar_pat_/);
    const response = await call(url('production'), 'GET', `/v1/organizations/${organizationId}`, { token });
    expect(response.status).toBe(200);
  });

  test('an unknown organization is a one-line failure', async () => {
    const result = await cli(
      'token:create',
      '--kind',
      'oat',
      '--organization',
      '7c3c1a8e-5d6b-4c1e-9a55-0f3a2b1c4d5e',
      '--scopes',
      'all',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/No organization 7c3c1a8e/);
  });

  test('token:revoke makes the token invalid_token', async () => {
    const { token } = await cliJson(
      'token:create',
      '--kind',
      'oat',
      '--organization',
      organizationId,
      '--scopes',
      ALL_SCOPES.join(','),
    );
    // The server now remembers the resolved bearer (for up to 5 s)...
    expect((await call(url('production'), 'GET', '/v1/organizations/', { token })).status).toBe(200);

    const revoked = await cli('token:revoke', '--token', token);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).not.toContain(token);

    // ...but the CLI's NOTIFY evicted it: the very next request after the CLI exits is refused.
    const response = await call(url('production'), 'GET', '/v1/organizations/', { token });
    expect(response.status).toBe(401);
    expect(response.body.error).toBe('invalid_token');

    const again = await cli('token:revoke', '--token', token);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/No live organization access token matches/);
  });

  test('revoking something that is not an access token fails cleanly', async () => {
    const result = await cli('token:revoke', '--token', 'hunter2');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Only polar_pat_ and polar_oat_ tokens can be revoked/);
  });
});

describe('users, organizations and members', () => {
  test('user:create, org:create, member:add and a PAT for the new member', async () => {
    const s = slug('team');
    const owner = `owner-${s}@example.com`;
    const member = `member-${s}@example.com`;
    const { user_id: ownerId } = await cliJson('user:create', '--email', owner, '--password', 'owner password');
    expect(ownerId).toMatch(UUID);
    expect(await cliJson('user:create', '--email', member, '--password', 'member password')).toEqual({
      user_id: expect.stringMatching(UUID),
    });
    const { organization_id: organizationId } = await cliJson(
      'org:create',
      '--owner-email',
      owner,
      '--name',
      'Team Org',
      '--slug',
      s,
    );
    expect(organizationId).toMatch(UUID);

    const { token } = await cliJson(
      'token:create',
      '--kind',
      'pat',
      '--email',
      member,
      '--scopes',
      'organizations:read',
    );
    expect((await call(url('production'), 'GET', `/v1/organizations/${organizationId}`, { token })).status).toBe(404);

    const added = await cli('member:add', '--organization', organizationId, '--email', member, '--role', 'admin');
    expect(added.code).toBe(0);
    // The server had cached the member's principal without the organization; the CLI's NOTIFY evicted it.
    const response = await call(url('production'), 'GET', `/v1/organizations/${organizationId}`, { token });
    expect(response.status).toBe(200);

    const twice = await cli('member:add', '--organization', organizationId, '--email', member);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/already a member/);
  });

  test('user:create refuses a duplicate e-mail; org:create an unknown owner', async () => {
    const s = slug('dup');
    await cliJson('user:create', '--email', `${s}@example.com`, '--password', 'dup password');
    const duplicate = await cli(
      'user:create',
      '--email',
      `${s.toUpperCase()}@example.com`,
      '--password',
      'dup password',
    );
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toMatch(/email: A user with this email already exists/);

    const orphan = await cli('org:create', '--owner-email', `nobody-${s}@example.com`, '--name', 'Orphan', '--slug', s);
    expect(orphan.code).toBe(1);
    expect(orphan.stderr).toMatch(/No user with e-mail/);
  });
});

describe('sandbox', () => {
  test('--env sandbox writes to the sandbox database', async () => {
    const s = slug('sbx');
    const output = await cliJson(
      'bootstrap',
      '--env',
      'sandbox',
      '--email',
      `${s}@example.com`,
      '--password',
      'sandbox password',
      '--org-name',
      'Sandbox Org',
      '--org-slug',
      s,
    );

    const inSandbox = await call(url('sandbox'), 'GET', '/v1/organizations/', {
      token: output.organization_access_token,
    });
    expect(inSandbox.status).toBe(200);
    expect(inSandbox.headers.get('x-polar-sandbox')).toBe('1');
    expect(inSandbox.body.items).toEqual([expect.objectContaining({ id: output.organization_id, slug: s })]);

    const inProduction = await call(url('production'), 'GET', '/v1/organizations/', {
      token: output.organization_access_token,
    });
    expect(inProduction.status).toBe(401);
    expect(inProduction.body.error).toBe('invalid_token');

    // The same slug and e-mail are free in production: separate data.
    const production = await cli(
      'bootstrap',
      '--email',
      `${s}@example.com`,
      '--password',
      'sandbox password',
      '--org-name',
      'Sandbox Org',
      '--org-slug',
      s,
      '--json',
    );
    expect(production.code).toBe(0);
  });
});
