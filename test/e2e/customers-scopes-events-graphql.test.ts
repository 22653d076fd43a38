import { ALL_SCOPES } from '../../kit/scopes.js';
import { call } from '../support/stack.js';
import { stack, base, alice, bob, emailOf, createCustomer, useCustomersStack } from './support/customers.js';

/** `/v1/customers/` through the public REST API: REST → gateway → billing → PostgreSQL. */
useCustomersStack();

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
