import { createPolar } from '@polar-sh/sdk-1/2026-10';
import { parseCsv } from '../support/csv.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/** `GET /v1/customers/export` (docs/interface.md#endpoints): Polar's CSV of the caller's customers. */
let stack: TestStack;
let base: string;
let alice: Tenant;
let bob: Tenant;
const customers: Record<string, any>[] = [];

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  alice = await createTenant(stack.production);
  bob = await createTenant(stack.production);
  const bodies = [
    { email: 'plain@example.com' },
    {
      email: 'oneil@example.com',
      name: 'Ó Néill, "Ltd"',
      external_id: 'ext-1',
      tax_id: 'FR61954506077',
      billing_address: { line1: '1 Main St', line2: 'Floor 2', city: 'Paris', postal_code: '75001', country: 'FR' },
      metadata: { plan: 'gold', seats: 3, vip: true, ville: 'Besançon' },
    },
  ];
  for (const body of bodies) {
    const res = await call(base, 'POST', '/v1/customers/', { token: alice.oat, body });
    if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
    customers.push(res.body);
  }
  const gone = await call(base, 'POST', '/v1/customers/', { token: alice.oat, body: { email: 'gone@example.com' } });
  await call(base, 'DELETE', `/v1/customers/${gone.body.id}`, { token: alice.oat });
  await call(base, 'POST', '/v1/customers/', { token: bob.oat, body: { email: 'bobs@example.com' } });
});

describe('customers:export', () => {
  it("answers text/csv with Polar's columns, one row per live customer, newest first (SDK 1.0.1)", async () => {
    const csv = await createPolar({ accessToken: alice.oat, baseUrl: base }).customers.export();
    expect(typeof csv).toBe('string');
    const [header, ...lines] = parseCsv(csv);
    expect(header).toEqual([
      'ID',
      'External ID',
      'Created At',
      'Email',
      'Name',
      'Tax ID',
      'Billing Address Line 1',
      'Billing Address Line 2',
      'Billing Address City',
      'Billing Address State',
      'Billing Address Zip',
      'Billing Address Country',
      'Metadata',
    ]);
    expect(lines.map(l => l[0])).toEqual([customers[1].id, customers[0].id]);
    const createdAt = customers[1].created_at.replace(/Z$/, '').replace(/\.(\d{3})$/, '.$1000');
    expect(lines[0]).toEqual([
      customers[1].id,
      'ext-1',
      `${createdAt}+00:00`,
      'oneil@example.com',
      'Ó Néill, "Ltd"',
      'FR61954506077',
      '1 Main St',
      'Floor 2',
      'Paris',
      '',
      '75001',
      'FR',
      // PostgreSQL's jsonb key order (shorter keys first), which Polar's jsonb column gives its export too.
      '{"vip": true, "plan": "gold", "seats": 3, "ville": "Besan\\u00e7on"}',
    ]);
    expect(lines[1]).toEqual([
      customers[0].id,
      '',
      expect.stringMatching(/\+00:00$/),
      'plain@example.com',
      ...Array(9).fill(''),
    ]);

    const res = await call(base, 'GET', '/v1/customers/export', { token: alice.oat });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.text.endsWith('\r\n')).toBe(true);
  });

  it('filters by organization_id, never shows another tenant, and checks its input and caller', async () => {
    const own = await call(base, 'GET', `/v1/customers/export?organization_id=${alice.organizationId}`, {
      token: alice.pat,
    });
    expect(parseCsv(own.text)).toHaveLength(3);
    const foreign = await call(base, 'GET', `/v1/customers/export?organization_id=${alice.organizationId}`, {
      token: bob.oat,
    });
    expect(foreign.status).toBe(200);
    expect(parseCsv(foreign.text)).toHaveLength(1); // the header only
    const bobs = parseCsv((await call(base, 'GET', '/v1/customers/export', { token: bob.oat })).text);
    expect(bobs.slice(1).map(l => l[3])).toEqual(['bobs@example.com']);

    const bad = await call(base, 'GET', '/v1/customers/export?organization_id=nope', { token: alice.oat });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['query', 'organization_id', 0] });
    expect((await call(base, 'GET', '/v1/customers/export')).status).toBe(401);
    const noScope = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, ['products:read']);
    const refused = await call(base, 'GET', '/v1/customers/export', { token: noScope });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('insufficient_scope');
  });
});
