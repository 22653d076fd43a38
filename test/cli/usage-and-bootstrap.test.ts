import { call, TEST_SECRET } from '../support/stack.js';
import { cli, packagedCli, slug, url, useCliStack, UUID } from './support.js';

useCliStack();

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

describe('run from the project folder, piped to a JSON reader', () => {
  // `npm run cli -- …` without -s prints npm's banner, the command line and its password, on stdout.
  test.each(['npx', 'npm'] as const)('%s: stdout is one JSON line, and the password appears nowhere', async runner => {
    const s = slug(runner);
    const password = `never echoed ${s}`;
    const result = await packagedCli(
      runner,
      'bootstrap',
      '--email',
      `${s}@example.com`,
      '--password',
      password,
      '--org-name',
      'Piped Inc',
      '--org-slug',
      s,
      '--json',
    );
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stdout)).toEqual(
      expect.objectContaining({ organization_id: expect.stringMatching(UUID), user_id: expect.stringMatching(UUID) }),
    );
    expect(result.stdout + result.stderr).not.toContain(password);
  });

  test("--help names the CLI's own command", async () => {
    const result = await packagedCli('npx', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npx billing-cli <command>/);
  });
});
