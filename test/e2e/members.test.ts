import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Customer members over real HTTP (docs/members.md): every customer has its owner; the merchant lists,
 * adds, reads, changes and deletes members by ids and by external ids, one owner at all times, with
 * `member.*` events; another organization sees none of it; the portal's team and who the session is.
 */
let stack: TestStack;
let base: string;
let alice: Tenant;
let bob: Tenant;

const sql = (statement: string, values: unknown[]) =>
  stack.production.environment.billing.orm.em.fork().getConnection().execute(statement, values);
const api = (method: string, path: string, body?: unknown, token = alice.oat) =>
  call(base, method, path, { token, body });
const memberEvents = (memberId: string) =>
  sql(
    `select type, payload->>'role' as role from billing.events where type like 'member.%' and payload->>'id' = ? order by created_at, id`,
    [memberId],
  );

async function customer(body: Record<string, unknown>, token = alice.oat) {
  const res = await api('POST', '/v1/customers/', body, token);
  expect(res.status).toBe(201);
  return res.body;
}

async function session(customerId: string, token = alice.oat): Promise<string> {
  const res = await api('POST', '/v1/customer-sessions/', { customer_id: customerId }, token);
  expect(res.status).toBe(201);
  return res.body.token;
}

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  alice = await createTenant(stack.production);
  bob = await createTenant(stack.production);
  const on = await api('PATCH', `/v1/organizations/${alice.organizationId}`, {
    feature_settings: { member_model_enabled: true },
  });
  expect(on.status).toBe(200);
});

describe('/v1/customers/{id}/members', () => {
  it('gives every new customer its owner, with its e-mail, name and external id', async () => {
    const c = await customer({ email: 'solo@example.com', name: 'Solo', external_id: 'ext-solo' });
    const list = await api('GET', `/v1/customers/${c.id}/members`);
    expect(list.status).toBe(200);
    expect(list.body.pagination).toEqual({ total_count: 1, max_page: 1 });
    expect(list.body.items[0]).toMatchObject({
      customer_id: c.id,
      email: 'solo@example.com',
      name: 'Solo',
      external_id: 'ext-solo',
      role: 'owner',
    });
    const byExternal = await api('GET', '/v1/customers/external/ext-solo/members/ext-solo');
    expect(byExternal.status).toBe(200);
    expect(byExternal.body.id).toBe(list.body.items[0].id);
    // An individual customer has one member: its owner.
    const more = await api('POST', `/v1/customers/${c.id}/members`, { email: 'two@example.com' });
    expect(more.status).toBe(403);
    expect(more.body.error).toBe('NotPermitted');
    // Its owner's e-mail follows the customer's.
    expect((await api('PATCH', `/v1/customers/${c.id}`, { email: 'solo2@example.com' })).status).toBe(200);
    const after = await api('GET', `/v1/customers/${c.id}/members/${list.body.items[0].id}`);
    expect(after.body.email).toBe('solo2@example.com');
  });

  it('adds, changes and deletes a team’s members, keeping exactly one owner, with member.* events', async () => {
    const team = await customer({ type: 'team', email: 'boss@example.com', name: 'Team' });
    const [owner] = (await api('GET', `/v1/customers/${team.id}/members`)).body.items;
    const added = await api('POST', `/v1/customers/${team.id}/members`, {
      email: 'dev@example.com',
      name: 'Dev',
      external_id: 'dev-1',
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ customer_id: team.id, role: 'member', external_id: 'dev-1' });
    // The same e-mail answers the same member.
    const again = await api('POST', `/v1/customers/${team.id}/members`, { email: 'DEV@example.com' });
    expect(again.body.id).toBe(added.body.id);

    const billing = await api('POST', `/v1/customers/external/__none__/members`, { email: 'x@example.com' });
    expect(billing.status).toBe(404);

    const onlyOwners = await api('GET', `/v1/customers/${team.id}/members?role=owner`);
    expect(onlyOwners.body.items.map((m: any) => m.id)).toEqual([owner.id]);

    // The only owner cannot step down nor be deleted.
    const demote = await api('PATCH', `/v1/customers/${team.id}/members/${owner.id}`, { role: 'member' });
    expect(demote.status).toBe(422);
    expect(demote.body.detail[0].loc).toEqual(['body', 'role']);
    const del = await api('DELETE', `/v1/customers/${team.id}/members/${owner.id}`);
    expect(del.status).toBe(422);

    // Promoting a member moves ownership: the owner becomes billing manager.
    const promote = await api('PATCH', `/v1/customers/${team.id}/members/${added.body.id}`, { role: 'owner' });
    expect(promote.status).toBe(200);
    expect(promote.body.role).toBe('owner');
    const former = await api('GET', `/v1/customers/${team.id}/members/${owner.id}`);
    expect(former.body.role).toBe('billing_manager');

    const renamed = await api('PATCH', `/v1/customers/external/__x__/members/dev-1`, { name: 'x' });
    expect(renamed.status).toBe(404);
    expect((await api('DELETE', `/v1/customers/${team.id}/members/${owner.id}`)).status).toBe(204);
    expect((await api('GET', `/v1/customers/${team.id}/members/${owner.id}`)).status).toBe(404);
    const left = await api('GET', `/v1/customers/${team.id}/members`);
    expect(left.body.items.map((m: any) => [m.id, m.role])).toEqual([[added.body.id, 'owner']]);

    expect(await memberEvents(added.body.id)).toEqual([
      { type: 'member.created', role: 'member' },
      { type: 'member.updated', role: 'owner' },
    ]);
    expect(await memberEvents(owner.id)).toEqual([
      { type: 'member.updated', role: 'billing_manager' },
      { type: 'member.deleted', role: 'billing_manager' },
    ]);
  });

  it('honours `owner` in the customer’s create: its e-mail, name and external id, blanks the customer’s', async () => {
    const team = await customer({
      type: 'team',
      email: 'office@example.com',
      name: 'Office',
      external_id: 'office',
      owner: { email: 'chief@example.com', name: 'Chief', external_id: 'chief-1' },
    });
    const [owner] = (await api('GET', `/v1/customers/${team.id}/members`)).body.items;
    expect(owner).toMatchObject({ email: 'chief@example.com', name: 'Chief', external_id: 'chief-1', role: 'owner' });
    // A team without an e-mail gets the owner it names; blank fields fall back to the customer's.
    const bare = await customer({ type: 'team', name: 'Bare', owner: { email: 'lead@bare.example.com', name: '' } });
    const members = (await api('GET', `/v1/customers/${bare.id}/members`)).body.items;
    expect(members).toEqual([expect.objectContaining({ email: 'lead@bare.example.com', name: 'Bare', role: 'owner' })]);
    const bad = await api('POST', '/v1/customers/', { email: 'x1@example.com', owner: { email: 'nope' } });
    expect([bad.status, bad.body.detail[0].loc]).toEqual([422, ['body', 'owner', 'email']]);
    expect((await api('GET', '/v1/customers/?email=x1@example.com')).body.items).toEqual([]);
  });

  it('answers 409 when a user token reaches two customers with the external id, 200 with the organization’s token', async () => {
    const second = await stack.production.admin.createOrganization(alice.email, 'Alice Two', `alice-two-${Date.now()}`);
    for (const organizationId of [alice.organizationId, second.id]) {
      const res = await api(
        'POST',
        '/v1/customers/',
        { email: 'twin@example.com', external_id: 'twin', organization_id: organizationId },
        alice.pat,
      );
      expect(res.status).toBe(201);
    }
    for (const [method, path, body] of [
      ['GET', '/v1/customers/external/twin/members'],
      ['POST', '/v1/customers/external/twin/members', { email: 'm@example.com' }],
      ['GET', '/v1/customers/external/twin/members/twin'],
      ['PATCH', '/v1/customers/external/twin/members/twin', { name: 'x' }],
      ['DELETE', '/v1/customers/external/twin/members/twin'],
    ] as const) {
      const res = await api(method, path, body, alice.pat);
      expect([method, path, res.status, res.body.error]).toEqual([method, path, 409, 'AmbiguousExternalCustomerID']);
    }
    const scoped = await api('GET', '/v1/customers/external/twin/members/twin');
    expect([scoped.status, scoped.body.email, scoped.body.name]).toEqual([200, 'twin@example.com', null]);
  });

  it('answers 422 at the field for bad input and changes nothing', async () => {
    const team = await customer({ type: 'team', email: 'bad@example.com' });
    const before = await api('GET', `/v1/customers/${team.id}/members`);
    const badEmail = await api('POST', `/v1/customers/${team.id}/members`, { email: 'not-an-email' });
    expect(badEmail.status).toBe(422);
    expect(badEmail.body.detail[0].loc).toEqual(['body', 'email']);
    const owner = await api('POST', `/v1/customers/${team.id}/members`, { email: 'o@example.com', role: 'owner' });
    expect(owner.status).toBe(422);
    expect(owner.body.detail[0].loc).toEqual(['body', 'role']);
    const sorting = await api('GET', `/v1/customers/${team.id}/members?sorting=name`);
    expect(sorting.status).toBe(422);
    expect((await api('GET', `/v1/customers/${team.id}/members`)).body).toEqual(before.body);
  });

  it('refuses adding members where neither the member model nor seats are on (403)', async () => {
    const team = await customer({ type: 'team', email: 'off@example.com' }, bob.oat);
    const res = await api('POST', `/v1/customers/${team.id}/members`, { email: 'm@example.com' }, bob.oat);
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('Member management is not enabled for this organization');
  });

  it('shows another organization nothing (404) and lets it change nothing', async () => {
    const team = await customer({ type: 'team', email: 'private@example.com', external_id: 'private' });
    const [owner] = (await api('GET', `/v1/customers/${team.id}/members`)).body.items;
    for (const [method, path, body] of [
      ['GET', `/v1/customers/${team.id}/members`],
      ['GET', `/v1/customers/${team.id}/members/${owner.id}`],
      ['GET', '/v1/customers/external/private/members'],
      ['POST', `/v1/customers/${team.id}/members`, { email: 'spy@example.com' }],
      ['PATCH', `/v1/customers/${team.id}/members/${owner.id}`, { name: 'Spy' }],
      ['DELETE', `/v1/customers/${team.id}/members/${owner.id}`],
    ] as const) {
      const res = await api(method, path, body, bob.oat);
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    expect((await api('GET', `/v1/customers/${team.id}/members`)).body.items).toEqual([owner]);
  });
});

describe('/v1/customer-portal/members and customer-session/user', () => {
  it('lets a team customer’s session manage its team, as its owner', async () => {
    const team = await customer({ type: 'team', email: 'lead@example.com', name: 'Lead' });
    const token = await session(team.id);
    const user = await api('GET', '/v1/customer-portal/customer-session/user', undefined, token);
    expect(user.status).toBe(200);
    expect(user.body).toEqual({
      type: 'customer',
      name: 'Lead',
      email: 'lead@example.com',
      customer_id: team.id,
      member_id: null,
      role: null,
    });

    const added = await api('POST', '/v1/customer-portal/members', { email: 'new@example.com', name: 'New' }, token);
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      id: expect.any(String),
      created_at: expect.any(String),
      modified_at: null,
      email: 'new@example.com',
      name: 'New',
      role: 'member',
    });
    const asOwner = await api('POST', '/v1/customer-portal/members', { email: 'o2@example.com', role: 'owner' }, token);
    expect(asOwner.status).toBe(422);

    const list = await api('GET', '/v1/customer-portal/members', undefined, token);
    expect(list.status).toBe(200);
    expect(list.body.items.map((m: any) => m.role)).toEqual(['owner', 'member']);
    const ownerId = list.body.items[0].id;

    const role = await api('PATCH', `/v1/customer-portal/members/${added.body.id}`, { role: 'billing_manager' }, token);
    expect([role.status, role.body.role]).toEqual([200, 'billing_manager']);
    const self = await api('PATCH', `/v1/customer-portal/members/${ownerId}`, { role: 'member' }, token);
    expect(self.status).toBe(422);
    expect(self.body.detail[0].loc).toEqual(['path', 'id']);
    const removeSelf = await api('DELETE', `/v1/customer-portal/members/${ownerId}`, undefined, token);
    expect(removeSelf.status).toBe(422);
    expect((await api('DELETE', `/v1/customer-portal/members/${added.body.id}`, undefined, token)).status).toBe(204);
    expect((await api('GET', '/v1/customer-portal/members', undefined, token)).body.pagination.total_count).toBe(1);

    // Another team's session sees none of these members.
    const other = await session((await customer({ type: 'team', email: 'other@example.com' })).id);
    const foreign = await api('PATCH', `/v1/customer-portal/members/${ownerId}`, { name: 'x' }, other);
    expect(foreign.status).toBe(404);
  });

  it('keeps the team to team customers (403) and answers who an individual session is', async () => {
    const solo = await customer({ email: 'me@example.com' });
    const token = await session(solo.id);
    const list = await api('GET', '/v1/customer-portal/members', undefined, token);
    expect(list.status).toBe(403);
    const user = await api('GET', '/v1/customer-portal/customer-session/user', undefined, token);
    expect(user.body).toMatchObject({ type: 'customer', customer_id: solo.id, email: 'me@example.com' });
    expect((await api('GET', '/v1/customer-portal/members', undefined, alice.oat)).status).toBe(401);
  });
});
