import { randomUUID } from 'node:crypto';
import { ALL_SCOPES } from '../../kit/scopes.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';

/** `/v1/customers/` through the public REST API: REST → gateway → billing → PostgreSQL. */
let stack: TestStack;
let base: string;
let alice: Tenant;
let bob: Tenant;

beforeAll(async () => {
  stack = await startTestStack('customers');
  base = stack.production.baseUrl;
  alice = await createTenant(stack.production);
  bob = await createTenant(stack.production);
});
afterAll(async () => {
  await stack?.close();
});

const CUSTOMER_KEYS = [
  'id',
  'created_at',
  'modified_at',
  'metadata',
  'external_id',
  'email',
  'email_verified',
  'type',
  'name',
  'billing_name',
  'billing_address',
  'tax_id',
  'locale',
  'organization_id',
  'default_payment_method_id',
  'deleted_at',
  'first_user_event_at',
  'avatar_url',
];

let counter = 0;
const unique = (label: string) => `${label}-${Date.now().toString(36)}-${(counter += 1)}`;
const emailOf = (label: string) => `${unique(label)}@example.com`;

async function createCustomer(tenant: Tenant, body: Record<string, unknown> = {}) {
  const res = await call(base, 'POST', '/v1/customers/', { token: tenant.oat, body: { email: emailOf('c'), ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

describe('customers:create', () => {
  it('creates an individual customer with the full Customer shape', async () => {
    const email = emailOf('ada');
    const res = await call(base, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: {
        email,
        name: 'Ada Lovelace',
        external_id: unique('ext'),
        metadata: { plan: 'pro', seats: 3, vip: true },
        billing_address: { line1: '1 Main St', city: 'Paris', postal_code: '75001', country: 'FR' },
        tax_id: 'FR 61 954 506 077',
        locale: 'fr',
      },
    });
    expect(res.status).toBe(201);
    for (const key of CUSTOMER_KEYS) expect(res.body).toHaveProperty(key);
    expect(res.body).toMatchObject({
      email,
      name: 'Ada Lovelace',
      type: 'individual',
      email_verified: false,
      organization_id: alice.organizationId,
      metadata: { plan: 'pro', seats: 3, vip: true },
      tax_id: ['FR61954506077', 'eu_vat'],
      locale: 'fr',
      billing_address: {
        line1: '1 Main St',
        line2: null,
        postal_code: '75001',
        city: 'Paris',
        state: null,
        country: 'FR',
      },
      deleted_at: null,
      modified_at: null,
      default_payment_method_id: null,
    });
    expect(res.body.avatar_url).toMatch(/^https:\/\//);
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  });

  it('creates a team customer without an e-mail', async () => {
    const res = await call(base, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { type: 'team', name: 'Team A' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'team', email: null, name: 'Team A', metadata: {} });
  });

  it('requires an e-mail for an individual and validates it', async () => {
    const missing = await call(base, 'POST', '/v1/customers/', { token: alice.oat, body: { name: 'No mail' } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'email'] });
    const bad = await call(base, 'POST', '/v1/customers/', { token: alice.oat, body: { email: 'not-an-email' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'email']);
  });

  it('refuses a second customer with the same e-mail in one organization (any letter case), not across organizations', async () => {
    const email = emailOf('dup');
    await createCustomer(alice, { email });
    const again = await call(base, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { email: email.toUpperCase() },
    });
    expect(again.status).toBe(422);
    expect(again.body.error).toBe('PolarRequestValidationError');
    expect(again.body.detail[0]).toMatchObject({
      loc: ['body', 'email'],
      msg: 'A customer with this email address already exists.',
    });
    const elsewhere = await call(base, 'POST', '/v1/customers/', { token: bob.oat, body: { email } });
    expect(elsewhere.status).toBe(201);
  });

  it('refuses a duplicate external id in one organization', async () => {
    const externalId = unique('ext');
    await createCustomer(alice, { external_id: externalId });
    const again = await call(base, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { email: emailOf('x'), external_id: externalId },
    });
    expect(again.status).toBe(422);
    expect(again.body.detail[0]).toMatchObject({ loc: ['body', 'external_id'] });
    const elsewhere = await call(base, 'POST', '/v1/customers/', {
      token: bob.oat,
      body: { email: emailOf('x'), external_id: externalId },
    });
    expect(elsewhere.status).toBe(201);
  });

  it.each([
    ['too many keys', Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']))],
    ['a key longer than 40 characters', { ['k'.repeat(41)]: 'v' }],
    ['a string value longer than 500 characters', { note: 'x'.repeat(501) }],
    ['an empty string value', { note: '' }],
    ['a nested object value', { nested: { a: 1 } }],
  ])('enforces Polar metadata limits: %s → 422', async (_label, metadata) => {
    const res = await call(base, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { email: emailOf('m'), metadata },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc.slice(0, 2)).toEqual(['body', 'metadata']);
  });

  it('accepts metadata at the limits', async () => {
    const metadata = {
      ...Object.fromEntries(Array.from({ length: 49 }, (_, i) => [`k${i}`, i])),
      ['k'.repeat(40)]: 'x'.repeat(500),
    };
    const created = await createCustomer(alice, { metadata });
    expect(Object.keys(created.metadata)).toHaveLength(50);
  });

  it('applies the organization_id rules of §5.3', async () => {
    const withOat = await call(base, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { email: emailOf('o'), organization_id: alice.organizationId },
    });
    expect(withOat.status).toBe(422);
    expect(withOat.body.detail[0]).toMatchObject({ type: 'organization_token', loc: ['body', 'organization_id'] });
    const patMissing = await call(base, 'POST', '/v1/customers/', { token: alice.pat, body: { email: emailOf('o') } });
    expect(patMissing.status).toBe(422);
    expect(patMissing.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'organization_id'] });
    const patOther = await call(base, 'POST', '/v1/customers/', {
      token: alice.pat,
      body: { email: emailOf('o'), organization_id: bob.organizationId },
    });
    expect(patOther.status).toBe(422);
    const patOwn = await call(base, 'POST', '/v1/customers/', {
      token: alice.pat,
      body: { email: emailOf('o'), organization_id: alice.organizationId },
    });
    expect(patOwn.status).toBe(201);
    expect(patOwn.body.organization_id).toBe(alice.organizationId);
  });

  it('requires a country for a tax id', async () => {
    const res = await call(base, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { email: emailOf('t'), tax_id: 'FR61954506077' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'tax_id']);
  });
});

describe('customers:get, update, delete', () => {
  it('gets by id; another organization gets 404', async () => {
    const customer = await createCustomer(alice);
    const res = await call(base, 'GET', `/v1/customers/${customer.id}`, { token: alice.pat });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(customer);
    const other = await call(base, 'GET', `/v1/customers/${customer.id}`, { token: bob.oat });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    expect((await call(base, 'GET', `/v1/customers/${randomUUID()}`, { token: alice.oat })).status).toBe(404);
    expect((await call(base, 'GET', '/v1/customers/not-a-uuid', { token: alice.oat })).status).toBe(422);
  });

  it('updates fields; absent fields stay; metadata is replaced', async () => {
    const customer = await createCustomer(alice, {
      name: 'Before',
      metadata: { a: '1' },
      billing_address: { country: 'US' },
    });
    const res = await call(base, 'PATCH', `/v1/customers/${customer.id}`, {
      token: alice.oat,
      body: { name: 'After', metadata: { b: 2 } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'After',
      metadata: { b: 2 },
      email: customer.email,
      billing_address: { country: 'US' },
    });
    expect(res.body.modified_at).not.toBeNull();
    const billingNull = await call(base, 'PATCH', `/v1/customers/${customer.id}`, {
      token: alice.oat,
      body: { billing_address: null },
    });
    expect(billingNull.body.billing_address).toMatchObject({ country: 'US' });
  });

  it('sets an external id once, then refuses to change it', async () => {
    const customer = await createCustomer(alice);
    const externalId = unique('ext');
    const set = await call(base, 'PATCH', `/v1/customers/${customer.id}`, {
      token: alice.oat,
      body: { external_id: externalId },
    });
    expect(set.status).toBe(200);
    expect(set.body.external_id).toBe(externalId);
    const same = await call(base, 'PATCH', `/v1/customers/${customer.id}`, {
      token: alice.oat,
      body: { external_id: externalId },
    });
    expect(same.status).toBe(200);
    const change = await call(base, 'PATCH', `/v1/customers/${customer.id}`, {
      token: alice.oat,
      body: { external_id: unique('other') },
    });
    expect(change.status).toBe(422);
    expect(change.body.detail[0]).toMatchObject({
      loc: ['body', 'external_id'],
      msg: 'Customer external ID cannot be updated.',
    });
  });

  it('refuses an e-mail taken by another customer of the organization', async () => {
    const first = await createCustomer(alice);
    const second = await createCustomer(alice);
    const res = await call(base, 'PATCH', `/v1/customers/${second.id}`, {
      token: alice.oat,
      body: { email: first.email },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].msg).toBe('A customer with this email address already exists.');
    const own = await call(base, 'PATCH', `/v1/customers/${second.id}`, {
      token: alice.oat,
      body: { email: emailOf('new') },
    });
    expect(own.status).toBe(200);
  });

  it('another organization cannot update or delete', async () => {
    const customer = await createCustomer(alice);
    expect(
      (await call(base, 'PATCH', `/v1/customers/${customer.id}`, { token: bob.oat, body: { name: 'x' } })).status,
    ).toBe(404);
    expect((await call(base, 'DELETE', `/v1/customers/${customer.id}`, { token: bob.oat })).status).toBe(404);
    expect((await call(base, 'GET', `/v1/customers/${customer.id}`, { token: alice.oat })).body.name).toBeNull();
  });

  it('soft-deletes: 204, then 404, gone from lists, its e-mail free again', async () => {
    const customer = await createCustomer(alice);
    const res = await call(base, 'DELETE', `/v1/customers/${customer.id}`, { token: alice.oat });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await call(base, 'GET', `/v1/customers/${customer.id}`, { token: alice.oat })).status).toBe(404);
    expect((await call(base, 'DELETE', `/v1/customers/${customer.id}`, { token: alice.oat })).status).toBe(404);
    const list = await call(base, 'GET', `/v1/customers/?email=${encodeURIComponent(customer.email)}`, {
      token: alice.oat,
    });
    expect(list.body.items).toEqual([]);
    await createCustomer(alice, { email: customer.email });
  });
});

describe('customers by external id', () => {
  it('gets, updates and deletes by external id, scoped to the organization', async () => {
    const externalId = unique('user');
    const customer = await createCustomer(alice, { external_id: externalId });
    const path = `/v1/customers/external/${encodeURIComponent(externalId)}`;
    const got = await call(base, 'GET', path, { token: alice.oat });
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(customer.id);
    expect((await call(base, 'GET', path, { token: bob.oat })).status).toBe(404);

    const updated = await call(base, 'PATCH', path, {
      token: alice.oat,
      body: { name: 'By external', metadata: { x: 'y' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id: customer.id,
      name: 'By external',
      external_id: externalId,
      metadata: { x: 'y' },
    });
    expect((await call(base, 'PATCH', path, { token: bob.oat, body: { name: 'x' } })).status).toBe(404);

    expect((await call(base, 'DELETE', path, { token: bob.oat })).status).toBe(404);
    expect((await call(base, 'DELETE', path, { token: alice.oat })).status).toBe(204);
    expect((await call(base, 'GET', path, { token: alice.oat })).status).toBe(404);
    expect((await call(base, 'GET', '/v1/customers/external/nobody-has-this', { token: alice.oat })).status).toBe(404);
  });
});

describe('customers:list', () => {
  let carol: Tenant;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    carol = await createTenant(stack.production);
    for (const [key, body] of [
      ['zed', { email: 'zed@alpha.test', name: 'Zed', metadata: { plan: 'pro', tier: 1 } }],
      ['amy', { email: 'amy@beta.test', name: 'Amy', metadata: { plan: 'free' } }],
      ['max', { email: 'max@alpha.test', name: 'Max', external_id: 'max-ext', metadata: { plan: 'team', vip: true } }],
    ] as const) {
      const res = await call(base, 'POST', '/v1/customers/', { token: carol.oat, body });
      expect(res.status).toBe(201);
      ids[key] = res.body.id;
    }
  });

  const list = async (query = '', token = carol.oat) => {
    const res = await call(base, 'GET', `/v1/customers/${query}`, { token });
    expect(res.status).toBe(200);
    return res.body;
  };

  it("lists the organization's customers newest first by default", async () => {
    const body = await list();
    expect(body.items.map((c: any) => c.id)).toEqual([ids.max, ids.amy, ids.zed]);
    expect(body.pagination).toEqual({ total_count: 3, max_page: 1 });
    for (const key of CUSTOMER_KEYS) expect(body.items[0]).toHaveProperty(key);
  });

  it('sorts by email, name and created_at', async () => {
    expect((await list('?sorting=email')).items.map((c: any) => c.name)).toEqual(['Amy', 'Max', 'Zed']);
    expect((await list('?sorting=-name')).items.map((c: any) => c.name)).toEqual(['Zed', 'Max', 'Amy']);
    expect((await list('?sorting=created_at')).items.map((c: any) => c.name)).toEqual(['Zed', 'Amy', 'Max']);
    const bad = await call(base, 'GET', '/v1/customers/?sorting=amount', { token: carol.oat });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc.slice(0, 2)).toEqual(['query', 'sorting']);
  });

  it('filters by email (case-insensitive), query, metadata and organization', async () => {
    expect((await list('?email=AMY@beta.test')).items.map((c: any) => c.id)).toEqual([ids.amy]);
    expect((await list('?query=alpha&sorting=name')).items.map((c: any) => c.id)).toEqual([ids.max, ids.zed]);
    expect((await list('?query=max-e')).items.map((c: any) => c.id)).toEqual([ids.max]);
    expect((await list('?query=%25')).items).toEqual([]);
    expect((await list('?metadata[plan]=pro')).items.map((c: any) => c.id)).toEqual([ids.zed]);
    expect((await list('?metadata[plan]=pro&metadata[plan]=free&sorting=name')).items.map((c: any) => c.id)).toEqual([
      ids.amy,
      ids.zed,
    ]);
    expect((await list('?metadata[vip]=true')).items.map((c: any) => c.id)).toEqual([ids.max]);
    expect((await list('?metadata[tier]=1')).items.map((c: any) => c.id)).toEqual([ids.zed]);
    expect((await list('?metadata[plan]=pro&metadata[tier]=2')).items).toEqual([]);
    expect((await list(`?organization_id=${carol.organizationId}`)).items).toHaveLength(3);
    expect((await list(`?organization_id=${alice.organizationId}`)).items).toEqual([]);
  });

  it('pages and clamps the limit', async () => {
    const page2 = await list('?limit=2&page=2&sorting=name');
    expect(page2.items.map((c: any) => c.name)).toEqual(['Zed']);
    expect(page2.pagination).toEqual({ total_count: 3, max_page: 2 });
    expect((await list('?limit=1000')).pagination).toEqual({ total_count: 3, max_page: 1 });
    expect((await list('?page=5')).items).toEqual([]);
    expect((await call(base, 'GET', '/v1/customers/?page=0', { token: carol.oat })).status).toBe(422);
  });

  it("never includes another organization's customers", async () => {
    const body = await list('?limit=100', bob.oat);
    expect(body.items.every((c: any) => c.organization_id === bob.organizationId)).toBe(true);
    expect(body.items.map((c: any) => c.id)).not.toContain(ids.amy);
  });

  it('a user sees the customers of every organization they belong to', async () => {
    const body = await list('?limit=100', carol.pat);
    expect(body.items.map((c: any) => c.id).sort()).toEqual(Object.values(ids).sort());
  });
});

describe('scopes and subjects', () => {
  it('needs customers:read to read and customers:write to write', async () => {
    const readOnly = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, [
      'customers:read',
    ]);
    const none = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, ['products:read']);
    expect((await call(base, 'GET', '/v1/customers/', { token: readOnly })).status).toBe(200);
    const write = await call(base, 'POST', '/v1/customers/', { token: readOnly, body: { email: emailOf('s') } });
    expect(write.status).toBe(403);
    expect(write.body.error).toBe('insufficient_scope');
    expect((await call(base, 'GET', '/v1/customers/', { token: none })).status).toBe(403);
    const writer = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, [
      'customers:write',
    ]);
    expect((await call(base, 'GET', '/v1/customers/', { token: writer })).status).toBe(200);
    expect(ALL_SCOPES).toContain('customers:write');
  });

  it('anonymous is 401 Unauthorized', async () => {
    const res = await call(base, 'GET', '/v1/customers/');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
  });

  it('checks the access rule before the body', async () => {
    const res = await call(base, 'POST', '/v1/customers/', { body: { email: 'bad' } });
    expect(res.status).toBe(401);
  });
});

describe('events', () => {
  it('records customer.created, customer.updated and customer.deleted in the outbox with the change', async () => {
    const customer = await createCustomer(alice);
    await call(base, 'PATCH', `/v1/customers/${customer.id}`, { token: alice.oat, body: { name: 'Evented' } });
    await call(base, 'DELETE', `/v1/customers/${customer.id}`, { token: alice.oat });
    const rows = await stack.production.environment.billing.orm.em
      .fork()
      .getConnection()
      .execute(
        `select type, organization_id, payload from billing.events where payload->>'id' = ? order by created_at, type`,
        [customer.id],
      );
    expect(rows.map((r: any) => r.type).sort()).toEqual(['customer.created', 'customer.deleted', 'customer.updated']);
    expect(rows.every((r: any) => r.organization_id === alice.organizationId)).toBe(true);
    const updated = rows.find((r: any) => r.type === 'customer.updated');
    expect(updated?.payload).toMatchObject({
      id: customer.id,
      name: 'Evented',
      email: customer.email,
      organization_id: alice.organizationId,
    });
  });
});

describe('GraphQL', () => {
  it('Organization.customers and _entities are tenant-scoped', async () => {
    const customer = await createCustomer(alice, { name: 'Graph' });
    const query = `query($id: ID!) { organization(id: $id) { id customers(limit: 100) { items { id name } pagination { totalCount } } } }`;
    const res = await call(base, 'POST', '/graphql', {
      token: alice.oat,
      body: { query, variables: { id: alice.organizationId } },
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.organization.customers.items.map((c: any) => c.id)).toContain(customer.id);

    const entities = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Customer { id email } } }`;
    const representations = [{ __typename: 'Customer', id: customer.id }];
    const mine = await stack.production.environment.billing.schema;
    expect(mine).toBeDefined();
    const { execute, parse } = await import('graphql');
    const run = (principal: any) =>
      execute({
        schema: stack.production.environment.billing.schema,
        document: parse(entities),
        variableValues: { r: representations },
        contextValue: stack.production.environment.billing.createContext(principal, 'test'),
      });
    const asAlice = await run({
      subject: 'organization',
      subjectId: alice.organizationId,
      credential: 'organization_access_token',
      scopes: ['customers:read'],
      organizationIds: [alice.organizationId],
      tokenId: null,
    });
    expect((asAlice.data as any)._entities).toEqual([{ id: customer.id, email: customer.email }]);
    const asBob = await run({
      subject: 'organization',
      subjectId: bob.organizationId,
      credential: 'organization_access_token',
      scopes: ['customers:read'],
      organizationIds: [bob.organizationId],
      tokenId: null,
    });
    expect((asBob.data as any)._entities).toEqual([null]);
  });
});
