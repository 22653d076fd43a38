import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/** The federated graph at POST /graphql: same bearer auth as REST, depth and cost limits. */
let stack: TestStack;
let tenant: Tenant;
let other: Tenant;
beforeAll(async () => {
  stack = await sharedTestStack();
  tenant = await createTenant(stack.production);
  other = await createTenant(stack.production);
});

const gql = (token: string | undefined, query: string, variables?: Record<string, unknown>) =>
  call(stack.production.baseUrl, 'POST', '/graphql', { token, body: { query, variables } });

describe('POST /graphql', () => {
  it("answers a query with the caller's organizations", async () => {
    const res = await gql(
      tenant.oat,
      '{ organizations { items { id slug subscriptionSettings { prorationBehavior } } pagination { totalCount maxPage } } }',
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.organizations).toEqual({
      items: [{ id: tenant.organizationId, slug: tenant.slug, subscriptionSettings: { prorationBehavior: 'prorate' } }],
      pagination: { totalCount: 1, maxPage: 1 },
    });
  });

  it('runs mutations with the same rules as REST', async () => {
    const res = await gql(
      tenant.oat,
      'mutation($id: ID!) { updateOrganization(id: $id, input: { website: "https://graph.example" }) { website } }',
      { id: tenant.organizationId },
    );
    expect(res.body.data.updateOrganization.website).toBe('https://graph.example');
    const foreign = await gql(tenant.oat, 'query($id: ID!) { organization(id: $id) { id } }', {
      id: other.organizationId,
    });
    expect(foreign.body.data).toBeNull();
    expect(foreign.body.errors[0].extensions).toEqual({ code: 'ResourceNotFound', http: { status: 404 } });
    const create = await gql(
      tenant.oat,
      'mutation { createOrganization(input: { name: "Via graph", slug: "via-graph-oat" }) { id } }',
    );
    expect(create.body.errors[0].extensions.code).toBe('Unauthorized');
  });

  it('requires credentials and scopes', async () => {
    const anonymous = await gql(undefined, '{ organizations { items { id } } }');
    expect(anonymous.body.errors[0].extensions.code).toBe('Unauthorized');
    const invalid = await gql('polar_oat_nonsense', '{ organizations { items { id } } }');
    expect(invalid.status).toBe(401);
    expect(invalid.body.error).toBe('invalid_token');
    const scoped = await stack.production.admin.createOrganizationAccessToken(tenant.organizationId, ['products:read']);
    const forbidden = await gql(scoped, '{ organizations { items { id } } }');
    expect(forbidden.body.errors[0].extensions).toMatchObject({ code: 'insufficient_scope', http: { status: 403 } });
  });

  it('rejects documents that are too deep or too costly before running them', async () => {
    const deep = await gql(tenant.oat, '{ organizations { items { customerPortalSettings { usage { show } } } } }');
    expect(deep.status).toBe(200);
    const fields = Array.from(
      { length: 120 },
      (_, i) => `a${i}: organizations(limit: 100) { items { subscriptionSettings { allowMultipleSubscriptions } } }`,
    ).join('\n');
    const costly = await gql(tenant.oat, `{ ${fields} }`);
    expect(costly.status).toBe(400);
    expect(costly.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(costly.body.errors[0].message).toMatch(/cost/);
  });

  it('answers a syntax error with 400 and no internals', async () => {
    const res = await gql(tenant.oat, '{ organizations { ');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toMatch(/stack|node_modules/);
  });

  it('refuses a body that is not JSON', async () => {
    const res = await call(stack.production.baseUrl, 'POST', '/graphql', {
      token: tenant.oat,
      rawBody: 'query=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(400);
  });
});
