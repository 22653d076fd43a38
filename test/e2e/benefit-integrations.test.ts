import { ManualClock } from '../../kit/clock.js';
import { benefitHelpers } from '../support/benefits.js';
import { FakeVendors } from '../support/fake-vendors.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';

/**
 * Issue 12's integrations through the public API, against Discord, GitHub and Slack faked on loopback
 * (test/support/fake-vendors.ts checks each vendor's authorization). A subscription with the three
 * benefits: each grant waits for what only the customer can give (its Discord user id, its GitHub
 * login, the e-mail for the Slack invite) and says so in its `error`; the customer gives it through
 * `PATCH /v1/customer-portal/benefit-grants/{id}` and the vendor receives the call; a new account moves
 * the role; a revoke removes it, and a vendor outage is stored on the grant and retried by the job.
 * The "not configured" case is test/e2e/benefits.test.ts (a stack without the tokens).
 */
jest.setTimeout(120_000);
const wall = new ManualClock(new Date('2028-03-01T10:00:00.000Z'));
let stack: TestStack;
let owner: Tenant;
let base: string;
let vendors: FakeVendors;
const { api, settle, benefit, product, sell, outbox } = benefitHelpers(() => ({ stack, owner, base }));

beforeAll(async () => {
  vendors = await new FakeVendors().start();
  stack = await startTestStack('benefit_integrations', wall, vendors.env());
  owner = await createTenant(stack.sandbox);
  base = stack.sandbox.baseUrl;
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await vendors?.close();
});

const portal = (token: string, method: string, path: string, body?: unknown) =>
  call(base, method, `/v1/customer-portal/benefit-grants/${path}`, { token, body });
const sessionOf = async (customerId: string) =>
  (await api('POST', '/v1/customer-sessions/', { customer_id: customerId })).body.token as string;

describe('Discord, GitHub and Slack benefits granted through their vendors', () => {
  let subscriptionId: string;
  let customerId: string;
  let token: string;
  const ids: Record<string, string> = {};
  const grantOf = async (type: string) => (await portal(token, 'GET', ids[type])).body;

  it('waits for the customer: no vendor call, the grant says what is missing', async () => {
    const discord = await benefit({
      type: 'discord',
      description: 'Discord role',
      properties: { guild_token: 'opaque', guild_id: '111', role_id: '555', kick_member: false },
    });
    const github = await benefit({
      type: 'github_repository',
      description: 'Source access',
      properties: { repository_owner: 'acme', repository_name: 'private-repo', permission: 'push' },
    });
    const slack = await benefit({
      type: 'slack_shared_channel',
      description: 'Support channel',
      properties: {
        slack_integration_id: 'workspace',
        channel_name_template: '{customer_email_local} support',
        team_invitees: ['U0SUPPORT'],
        welcome_message: 'Welcome!',
      },
    });
    const productId = await product({ name: 'Team' });
    expect(
      (await api('POST', `/v1/products/${productId}/benefits`, { benefits: [discord.id, github.id, slack.id] })).status,
    ).toBe(200);
    const order = await sell(productId, 'dev@example.com');
    subscriptionId = order.subscription_id;
    customerId = order.customer_id;
    const grants = await settle(
      () => api('GET', `/v1/benefit-grants/?customer_id=${customerId}&limit=100`),
      res => res.body.items?.length === 3 && res.body.items.every((g: any) => g.error),
    );
    const errors = Object.fromEntries(grants.body.items.map((g: any) => [g.benefit.type, g.error]));
    expect(errors).toMatchObject({
      discord: { type: 'BenefitActionRequiredError', message: 'The customer needs to connect their Discord account' },
      github_repository: {
        type: 'BenefitActionRequiredError',
        message: 'The customer needs to connect their GitHub account',
      },
      slack_shared_channel: { type: 'BenefitActionRequiredError' },
    });
    expect(grants.body.items.every((g: any) => g.is_granted === false)).toBe(true);
    expect(vendors.calls).toEqual([]);

    token = await sessionOf(customerId);
    const list = await portal(token, 'GET', '?limit=10');
    expect(list.status).toBe(200);
    expect(list.body.pagination).toEqual({ total_count: 3, max_page: 1 });
    for (const g of list.body.items) ids[g.benefit.type] = g.id;
    // The product's order (`product_benefit`) is the default sorting.
    expect(list.body.items.map((g: any) => g.benefit.type)).toEqual([
      'discord',
      'github_repository',
      'slack_shared_channel',
    ]);
    const discordGrant = list.body.items[0];
    expect(discordGrant).toMatchObject({
      customer_id: customerId,
      subscription_id: subscriptionId,
      is_granted: false,
      is_revoked: false,
      member_id: null,
      customer: { id: customerId, email: 'dev@example.com', oauth_accounts: {} },
      benefit: { id: discord.id, type: 'discord', organization: { id: owner.organizationId, slug: owner.slug } },
    });
    // The merchant's secrets are not the subscriber's: only the server id.
    expect(discordGrant.benefit.properties).toEqual({ guild_id: '111' });
    const filtered = await portal(token, 'GET', '?type=github_repository&sorting=-granted_at');
    expect(filtered.body.items.map((g: any) => g.id)).toEqual([ids.github_repository]);
    expect((await portal(token, 'GET', '?sorting=price')).status).toBe(422);
  });

  it('refuses a wrong type or account with 422, and another customer’s grant with 404', async () => {
    const wrongType = await portal(token, 'PATCH', ids.discord, {
      benefit_type: 'github_repository',
      properties: { account_id: 'octocat' },
    });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.detail[0]).toMatchObject({
      loc: ['body', 'benefit_type'],
      msg: 'Benefit type must match the existing granted benefit type.',
    });
    const notAnId = await portal(token, 'PATCH', ids.discord, {
      benefit_type: 'discord',
      properties: { account_id: '../../users/@me' },
    });
    expect([notAnId.status, notAnId.body.detail[0].loc]).toEqual([422, ['body', 'properties', 'account_id']]);

    const other = await sell(
      (await api('GET', `/v1/subscriptions/${subscriptionId}`)).body.product_id,
      'other@example.com',
    );
    const otherToken = await sessionOf(other.customer_id);
    expect((await portal(otherToken, 'GET', ids.discord)).status).toBe(404);
    const foreign = await portal(otherToken, 'PATCH', ids.discord, {
      benefit_type: 'discord',
      properties: { account_id: '1' },
    });
    expect(foreign.status).toBe(404);
    expect((await portal(owner.oat, 'GET', '')).status).toBe(401);
    expect(vendors.calls).toEqual([]);
  });

  it('grants once the customer connects its accounts: the vendors receive the calls', async () => {
    const patched = await portal(token, 'PATCH', ids.discord, {
      benefit_type: 'discord',
      properties: { account_id: '999' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: ids.discord, error: null, properties: { account_id: '999' } });
    expect(
      (
        await portal(token, 'PATCH', ids.github_repository, {
          benefit_type: 'github_repository',
          properties: { account_id: 'octocat' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await portal(token, 'PATCH', ids.slack_shared_channel, {
          benefit_type: 'slack_shared_channel',
          properties: { invited_email: 'admin@customer.test' },
        })
      ).status,
    ).toBe(200);
    const granted = await settle(
      async () => Promise.all(['discord', 'github_repository', 'slack_shared_channel'].map(grantOf)),
      grants => grants.every(g => g.is_granted),
    );
    expect(vendors.refused).toEqual([]);
    expect(vendors.of('discord')).toEqual(['PUT /guilds/111/members/999/roles/555']);
    expect(vendors.calls.find(c => c.vendor === 'github')).toMatchObject({
      method: 'PUT',
      path: '/repos/acme/private-repo/collaborators/octocat',
      body: { permission: 'push' },
    });
    const suffix = customerId.replace(/-/g, '').slice(0, 4);
    expect(vendors.calls.filter(c => c.vendor === 'slack').map(c => [c.path, c.body])).toEqual([
      ['/conversations.create', { name: `dev-support-${suffix}`, is_private: true }],
      ['/conversations.invite', { channel: 'C1', users: 'U0SUPPORT' }],
      ['/chat.postMessage', { channel: 'C1', text: 'Welcome!' }],
      ['/conversations.inviteShared', { channel: 'C1', emails: ['admin@customer.test'] }],
    ]);
    expect(granted[0].properties).toEqual({
      account_id: '999',
      guild_id: '111',
      role_id: '555',
      granted_account_id: '999',
    });
    expect(granted[1].properties).toMatchObject({ granted_account_id: 'octocat', permission: 'push' });
    expect(granted[2].properties).toEqual({
      invited_email: 'admin@customer.test',
      channel_id: 'C1',
      channel_name: `dev-support-${suffix}`,
      invite_id: 'I1',
      invite_url: 'https://join.slack.test/1',
    });
    const created = (await outbox(['benefit_grant.created'])).filter(e => e.payload.customer_id === customerId);
    expect(created.map(e => e.payload.benefit.type).sort()).toEqual([
      'discord',
      'github_repository',
      'slack_shared_channel',
    ]);
  });

  it('moves the role to a new account: the old one loses it first', async () => {
    vendors.calls.length = 0;
    expect(
      (await portal(token, 'PATCH', ids.discord, { benefit_type: 'discord', properties: { account_id: '1000' } }))
        .status,
    ).toBe(200);
    await settle(
      () => grantOf('discord'),
      g => g.properties.granted_account_id === '1000',
    );
    expect(vendors.of('discord')).toEqual([
      'DELETE /guilds/111/members/999/roles/555',
      'PUT /guilds/111/members/1000/roles/555',
    ]);
    const updated = (await outbox(['benefit_grant.updated'])).filter(e => e.payload.id === ids.discord);
    expect(updated.at(-1)?.payload).toMatchObject({
      properties: { granted_account_id: '1000' },
      previous_properties: { account_id: '1000', granted_account_id: '999' },
    });
  });

  it('revokes at the vendors; an outage is stored on the grant and the job retries it', async () => {
    vendors.calls.length = 0;
    vendors.outage.add('github');
    expect((await api('DELETE', `/v1/subscriptions/${subscriptionId}`)).status).toBe(200);
    const grants = () => api('GET', `/v1/benefit-grants/?customer_id=${customerId}&limit=100`);
    const byType = (res: any) => Object.fromEntries(res.body.items.map((g: any) => [g.benefit.type, g]));
    const first = byType(
      await settle(grants, res => byType(res).discord?.is_revoked && byType(res).github_repository?.error),
    );
    expect(first.github_repository).toMatchObject({
      is_granted: true,
      is_revoked: false,
      error: { type: 'BenefitRetriableError' },
    });
    expect(first.github_repository.error.message).toContain('GitHub answered 503');
    expect(first.discord.properties).toEqual({ account_id: '1000' });
    expect(vendors.of('discord')).toEqual(['DELETE /guilds/111/members/1000/roles/555']);
    expect(vendors.calls.filter(c => c.vendor === 'slack')).toEqual([
      { vendor: 'slack', method: 'POST', path: '/conversations.archive', body: { channel: 'C1' } },
    ]);
    const [job] = await stack.sandbox.environment.billing.orm.em
      .fork()
      .execute<{ status: string; attempts: number; last_error: string }[]>(
        `select status, attempts, last_error from billing.jobs where kind = 'benefits.reconcile' and last_error is not null`,
      );
    expect(job).toMatchObject({ status: 'pending', attempts: 1 });
    expect(job.last_error).toContain('GitHub answered 503');

    // The vendor is back; the job's backoff (2 s after its first attempt) passes on the worker's clock.
    vendors.outage.delete('github');
    wall.advance(5_000);
    const after = byType(await settle(grants, res => byType(res).github_repository?.is_revoked));
    expect(after.github_repository).toMatchObject({ error: null, properties: { account_id: 'octocat' } });
    expect(vendors.of('github')).toEqual(['DELETE /repos/acme/private-repo/collaborators/octocat']);

    // A revoked grant is the customer's no more: not listed, 404 to read, 403 to update.
    expect((await portal(token, 'GET', '')).body.items).toEqual([]);
    expect((await portal(token, 'GET', ids.discord)).status).toBe(404);
    const revoked = await portal(token, 'PATCH', ids.discord, {
      benefit_type: 'discord',
      properties: { account_id: '7' },
    });
    expect([revoked.status, revoked.body.error, revoked.body.detail]).toEqual([
      403,
      'NotPermitted',
      'Cannot update a revoked benefit grant.',
    ]);
  });
});
