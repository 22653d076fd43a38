import { call } from '../support/stack.js';
import {
  base,
  alice,
  bob,
  CUSTOMER_KEYS,
  unique,
  emailOf,
  createCustomer,
  useCustomersStack,
} from './support/customers.js';

/** `/v1/customers/` through the public REST API: REST → gateway → billing → PostgreSQL. */
useCustomersStack();

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

  it('applies the organization_id rules of docs/polar/auth.md#bearer-resolution', async () => {
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
