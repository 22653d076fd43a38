import { ALL_SCOPES } from '../../kit/scopes.js';
import { call } from '../support/stack.js';
import { cli, cliJson, slug, url, useCliStack, UUID } from './support.js';

useCliStack();

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
