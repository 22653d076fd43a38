import { BillingFixtures } from '../support/subscription-fixtures.js';
import { parseCsv } from '../support/csv.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/** docs/interface.md#endpoints `subscriptions:export`: text/csv, a header row, one row per subscription, organization filter. */
let stack: TestStack;
let base: string;
let alice: Tenant;
let bob: Tenant;
const rows: { id: string; email: string }[] = [];

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  alice = await createTenant(stack.production);
  bob = await createTenant(stack.production);
  const fx = new BillingFixtures(stack.production);
  const { product, price } = await fx.product(alice.organizationId, { name: 'Pro, "annual"', amount: 4900 });
  for (const email of ['plain@example.com', 'o"neil@example.com']) {
    const customer = await fx.customer(alice.organizationId, { email });
    const s = await fx.subscription({
      organizationId: alice.organizationId,
      customerId: customer.id,
      productId: product.id,
      priceIds: [price.id],
      amount: 4900,
    });
    rows.push({ id: s.id, email });
  }
  const bobProduct = await fx.product(bob.organizationId);
  const bobCustomer = await fx.customer(bob.organizationId);
  await fx.subscription({
    organizationId: bob.organizationId,
    customerId: bobCustomer.id,
    productId: bobProduct.product.id,
    priceIds: [bobProduct.price.id],
  });
});

describe('subscriptions:export', () => {
  it('answers text/csv with a header row and one row per subscription of the caller', async () => {
    const res = await call(base, 'GET', '/v1/subscriptions/export', { token: alice.oat });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...lines] = parseCsv(res.text);
    expect(header.slice(0, 3)).toEqual(['id', 'status', 'customer_id']);
    for (const column of [
      'customer_email',
      'product_name',
      'amount',
      'currency',
      'started_at',
      'current_period_end',
      'canceled_at',
      'ends_at',
    ])
      expect(header).toContain(column);
    expect(lines).toHaveLength(2);
    const at = (line: string[], column: string) => line[header.indexOf(column)];
    expect(lines.map(l => at(l, 'id')).sort()).toEqual(rows.map(r => r.id).sort());
    expect(lines.map(l => at(l, 'customer_email')).sort()).toEqual(['o"neil@example.com', 'plain@example.com']);
    for (const line of lines) {
      expect(at(line, 'product_name')).toBe('Pro, "annual"');
      expect(at(line, 'amount')).toBe('4900');
      expect(at(line, 'status')).toBe('active');
      expect(at(line, 'canceled_at')).toBe('');
    }
    // RFC 4180 quoting on the wire.
    expect(res.text).toContain('"Pro, ""annual"""');
    expect(res.text.endsWith('\r\n')).toBe(true);
  });

  it('filters by organization_id (single or repeated) and never includes another tenant', async () => {
    const single = await call(base, 'GET', `/v1/subscriptions/export?organization_id=${alice.organizationId}`, {
      token: alice.pat,
    });
    expect(parseCsv(single.text)).toHaveLength(3);
    const repeated = await call(
      base,
      'GET',
      `/v1/subscriptions/export?organization_id=${alice.organizationId}&organization_id=${bob.organizationId}`,
      { token: alice.pat },
    );
    expect(parseCsv(repeated.text)).toHaveLength(3);
    const foreign = await call(base, 'GET', `/v1/subscriptions/export?organization_id=${alice.organizationId}`, {
      token: bob.oat,
    });
    expect(foreign.status).toBe(200);
    expect(parseCsv(foreign.text)).toHaveLength(1); // the header only
    const bad = await call(base, 'GET', '/v1/subscriptions/export?organization_id=nope', { token: alice.oat });
    expect(bad.status).toBe(422);
    expect((await call(base, 'GET', '/v1/subscriptions/export')).status).toBe(401);
  });
});
