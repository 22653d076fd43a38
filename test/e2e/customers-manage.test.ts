import { randomUUID } from 'node:crypto';
import { call } from '../support/stack.js';
import { base, alice, bob, unique, emailOf, createCustomer, useCustomersStack } from './support/customers.js';

/** `/v1/customers/` through the public REST API: REST → gateway → billing → PostgreSQL. */
useCustomersStack();

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
