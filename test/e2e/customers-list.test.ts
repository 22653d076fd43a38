import { call, createTenant, type Tenant } from '../support/stack.js';
import { stack, base, alice, bob, CUSTOMER_KEYS, useCustomersStack } from './support/customers.js';

/** `/v1/customers/` through the public REST API: REST → gateway → billing → PostgreSQL. */
useCustomersStack();

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
