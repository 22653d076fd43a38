import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/** `PATCH /v1/customer-portal/customers/me`: the customer's own billing details (Polar's CustomerPortalCustomerUpdate). */
let stack: TestStack;
let base: string;
let alice: Tenant;
let customerId: string;
let token: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  alice = await createTenant(stack.production);
  customerId = (await new BillingFixtures(stack.production).customer(alice.organizationId, { name: 'Kim' })).id;
  token = (await call(base, 'POST', '/v1/customer-sessions/', { token: alice.oat, body: { customer_id: customerId } }))
    .body.token;
});

const patch = (body: unknown, bearer = token) =>
  call(base, 'PATCH', '/v1/customer-portal/customers/me', { token: bearer, body });

describe('customer_portal:customers:update', () => {
  it('sets billing name, address and tax id, answers the CustomerPortalCustomer and records customer.updated', async () => {
    const res = await patch({
      billing_name: 'Kim Ltd',
      billing_address: { line1: '2 Rue X', city: 'Paris', postal_code: '75001', country: 'FR' },
      tax_id: 'FR40303265045',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: customerId,
      name: 'Kim',
      billing_name: 'Kim Ltd',
      billing_address: {
        line1: '2 Rue X',
        line2: null,
        city: 'Paris',
        postal_code: '75001',
        state: null,
        country: 'FR',
      },
      tax_id: ['FR40303265045', 'eu_vat'],
    });
    const core = await call(base, 'GET', `/v1/customers/${customerId}`, { token: alice.oat });
    expect(core.body.billing_address.city).toBe('Paris');
    const events = await stack.production.environment.billing.orm.em
      .fork()
      .execute(`select type from billing.events where type = 'customer.updated' and payload::text like ?`, [
        `%${customerId}%`,
      ]);
    expect(events.length).toBeGreaterThan(0);
  });

  it('clears the billing name and tax id with empty strings; keeps fields it was not sent', async () => {
    const res = await patch({ billing_name: '', tax_id: '' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ billing_name: null, tax_id: null, billing_address: { city: 'Paris' } });
  });

  it('refuses to reset the billing address to null (422, as Polar) and bad input, changing nothing', async () => {
    const reset = await patch({ billing_address: null });
    expect(reset.status).toBe(422);
    expect(reset.body.detail).toEqual([
      {
        type: 'missing',
        loc: ['body', 'billing_address'],
        msg: 'Customer billing address cannot be reset to null once set.',
        input: null,
      },
    ]);
    const bad = await patch({ billing_address: { country: 'France' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'billing_address', 'country']);
    const me = await call(base, 'GET', '/v1/customer-portal/customers/me', { token });
    expect(me.body.billing_address.country).toBe('FR');
  });

  it('is the customer session only: an organization token gets 401', async () => {
    expect((await patch({ billing_name: 'x' }, alice.oat)).status).toBe(401);
  });
});
