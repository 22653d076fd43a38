import { randomUUID } from 'node:crypto';
import { zoneOf } from '../../rest-adapter/guards/rate-limit/rules.js';
import { routes } from '../../rest-adapter/v1/routes/index.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { issueKey, restoreGrant, revokeGrant } from './support/license-keys.js';

/** License keys through the public REST API: the Core API and the unauthenticated portal endpoints. */
let stack: TestStack;
let base: string;
let alice: Tenant;
let bob: Tenant;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  alice = await createTenant(stack.production);
  bob = await createTenant(stack.production);
});

const READ_KEYS = [
  'id',
  'created_at',
  'modified_at',
  'organization_id',
  'customer_id',
  'customer',
  'benefit_id',
  'key',
  'display_key',
  'status',
  'limit_activations',
  'usage',
  'limit_usage',
  'validations',
  'last_validated_at',
  'expires_at',
];

const portal = (verb: string, body: unknown) =>
  call(base, 'POST', `/v1/customer-portal/license-keys/${verb}`, { body });
const core = (verb: string, body: unknown, token = alice.oat) =>
  call(base, 'POST', `/v1/license-keys/${verb}`, { token, body });

describe('issuing (the grant seam)', () => {
  it('uses the benefit prefix, limits and expiry, and is idempotent per grant', async () => {
    const at = new Date('2026-11-20T10:00:00Z');
    const properties = {
      prefix: ' acme ',
      expires: { ttl: 1, timeframe: 'month' as const },
      activations: { limit: 2, enable_customer_admin: true },
      limit_usage: 10,
    };
    const first = await issueKey(stack.production, alice, properties, { at });
    expect(first.key).toMatch(/^ACME-[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    const again = await issueKey(stack.production, alice, properties, {
      grantId: first.grantId,
      benefitId: first.benefitId,
      customerId: first.customerId,
      at,
    });
    expect(again.id).toBe(first.id);
    expect(again.key).toBe(first.key);

    const got = await call(base, 'GET', `/v1/license-keys/${first.id}`, { token: alice.oat });
    expect(got.status).toBe(200);
    expect(Object.keys(got.body).sort()).toEqual([...READ_KEYS, 'activations'].sort());
    expect(got.body).toMatchObject({
      key: first.key,
      display_key: `****-${first.key.slice(-6)}`,
      status: 'granted',
      limit_activations: 2,
      limit_usage: 10,
      usage: 0,
      validations: 0,
      last_validated_at: null,
      expires_at: '2026-12-20T10:00:00.000Z',
      benefit_id: first.benefitId,
      customer_id: first.customerId,
      organization_id: alice.organizationId,
      activations: [],
    });
    expect(got.body.customer).toMatchObject({ id: first.customerId, name: 'Buyer' });
    // CustomerBase's keys: events do not exist here, so no first user event.
    expect(got.body.customer).toHaveProperty('billing_name');
    expect(got.body.customer.first_user_event_at).toBeNull();
  });
});

describe('validate, activate, deactivate', () => {
  it('validates, activates to the limit, refuses past it, and a deactivation frees a slot', async () => {
    const k = await issueKey(stack.production, alice, { activations: { limit: 2 } });
    const ids = { key: k.key, organization_id: alice.organizationId };

    const validated = await portal('validate', ids);
    expect(validated.status).toBe(200);
    expect(Object.keys(validated.body).sort()).toEqual([...READ_KEYS, 'activation'].sort());
    expect(validated.body).toMatchObject({ id: k.id, validations: 1, activation: null });
    expect(validated.body.last_validated_at).not.toBeNull();

    const first = await portal('activate', {
      ...ids,
      label: 'laptop',
      conditions: { major_version: 1 },
      meta: { os_name: 'linux' },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      license_key_id: k.id,
      label: 'laptop',
      meta: { os_name: 'linux' },
      modified_at: null,
    });
    expect(first.body.license_key).toMatchObject({ id: k.id, key: k.key });
    const second = await core('activate', { ...ids, label: 'desktop' });
    expect(second.status).toBe(200);

    const third = await portal('activate', { ...ids, label: 'phone' });
    expect(third.status).toBe(403);
    expect(third.body).toEqual({ error: 'NotPermitted', detail: 'License key activation limit already reached' });

    const withActivation = await portal('validate', {
      ...ids,
      activation_id: first.body.id,
      conditions: { major_version: 1 },
    });
    expect(withActivation.status).toBe(200);
    expect(withActivation.body.activation).toMatchObject({
      id: first.body.id,
      label: 'laptop',
      meta: { os_name: 'linux' },
    });
    const wrongConditions = await portal('validate', {
      ...ids,
      activation_id: first.body.id,
      conditions: { major_version: 2 },
    });
    expect(wrongConditions.status).toBe(404);
    expect(wrongConditions.body).toEqual({
      error: 'ResourceNotFound',
      detail: 'License key does not match required conditions',
    });

    const activation = await call(base, 'GET', `/v1/license-keys/${k.id}/activations/${first.body.id}`, {
      token: alice.oat,
    });
    expect(activation.status).toBe(200);
    expect(activation.body).toMatchObject({ id: first.body.id, license_key: { id: k.id } });

    const deactivated = await portal('deactivate', { ...ids, activation_id: first.body.id });
    expect(deactivated.status).toBe(204);
    expect(deactivated.text).toBe('');
    const again = await portal('deactivate', { ...ids, activation_id: first.body.id });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });

    const freed = await portal('activate', { ...ids, label: 'phone' });
    expect(freed.status).toBe(200);
    const got = await call(base, 'GET', `/v1/license-keys/${k.id}`, { token: alice.oat });
    expect(got.body.activations.map((a: { label: string }) => a.label)).toEqual(['desktop', 'phone']);
  });

  it('concurrent activations never pass the limit', async () => {
    const k = await issueKey(stack.production, alice, { activations: { limit: 3 } });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        portal('activate', { key: k.key, organization_id: alice.organizationId, label: `device ${i}` }),
      ),
    );
    expect(results.map(r => r.status).sort()).toEqual([200, 200, 200, 403, 403, 403, 403, 403]);
  });

  it('a key without an activation limit is validated, not activated', async () => {
    const k = await issueKey(stack.production, alice, {});
    const res = await portal('activate', { key: k.key, organization_id: alice.organizationId, label: 'x' });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe(
      'This license key does not support activations. Use the /validate endpoint instead to check license validity.',
    );
  });

  it('counts usage up to the limit', async () => {
    const k = await issueKey(stack.production, alice, { limit_usage: 5 });
    const ids = { key: k.key, organization_id: alice.organizationId };
    const used = await core('validate', { ...ids, increment_usage: 3 });
    expect(used.status).toBe(200);
    expect(used.body.usage).toBe(3);
    const over = await portal('validate', { ...ids, increment_usage: 3 });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: 'BadRequest', detail: 'License key only has 2 more usages.' });
    const rest = await portal('validate', { ...ids, increment_usage: 2 });
    expect(rest.body).toMatchObject({ usage: 5, validations: 2 });
  });

  it('refuses an expired key, and a wrong benefit or customer', async () => {
    const k = await issueKey(stack.production, alice, { activations: { limit: 1 } });
    const ids = { key: k.key, organization_id: alice.organizationId };
    expect((await portal('validate', { ...ids, benefit_id: randomUUID() })).body.detail).toBe(
      'License key does not match given benefit.',
    );
    expect((await portal('validate', { ...ids, customer_id: randomUUID() })).body.detail).toBe(
      'License key does not match given user.',
    );
    const past = await call(base, 'PATCH', `/v1/license-keys/${k.id}`, {
      token: alice.oat,
      body: { expires_at: '2020-01-01T00:00:00Z' },
    });
    expect(past.status).toBe(200);
    expect(past.body.expires_at).toBe('2020-01-01T00:00:00.000Z');
    const expired = await portal('validate', ids);
    expect(expired.status).toBe(404);
    expect(expired.body).toEqual({ error: 'ResourceNotFound', detail: 'License key has expired.' });
    const activate = await portal('activate', { ...ids, label: 'x' });
    expect(activate.status).toBe(403);
    expect(activate.body).toEqual({ error: 'NotPermitted', detail: 'License key has expired.' });
  });

  it('a revoked grant refuses its key, a re-grant restores it (same key)', async () => {
    const k = await issueKey(stack.production, alice, { activations: { limit: 1 } });
    const ids = { key: k.key, organization_id: alice.organizationId };
    expect(await revokeGrant(stack.production, k.grantId)).toBe(1);
    const refused = await portal('validate', ids);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ error: 'ResourceNotFound', detail: 'License key is no longer active.' });
    const activate = await portal('activate', { ...ids, label: 'x' });
    expect(activate.body).toEqual({
      error: 'NotPermitted',
      detail: 'License key is no longer active. This license key can not be activated.',
    });
    expect(await restoreGrant(stack.production, k.grantId)).toBe(1);
    const back = await portal('validate', ids);
    expect(back.status).toBe(200);
    expect(back.body.status).toBe('granted');
  });

  it('an unknown key, another organization, and a foreign token are all 404', async () => {
    const k = await issueKey(stack.production, alice, {});
    expect((await portal('validate', { key: 'NOPE', organization_id: alice.organizationId })).body).toEqual({
      error: 'ResourceNotFound',
      detail: 'Not found',
    });
    expect((await portal('validate', { key: k.key, organization_id: bob.organizationId })).status).toBe(404);
    expect((await core('validate', { key: k.key, organization_id: alice.organizationId }, bob.oat)).status).toBe(404);
    expect((await call(base, 'GET', `/v1/license-keys/${k.id}`, { token: bob.oat })).status).toBe(404);
  });

  it('bad input is a 422 and the Core API needs a token', async () => {
    const bad = await portal('validate', { key: 'x', organization_id: 'nope', increment_usage: -1 });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.organization_id', 'body.increment_usage']),
    );
    expect((await call(base, 'POST', '/v1/license-keys/validate', { body: { key: 'x' } })).status).toBe(401);
  });
});

describe('list and update', () => {
  it('lists the organization keys with filters, and updates status and limits', async () => {
    const tenant = await createTenant(stack.production);
    const benefitId = randomUUID();
    const a = await issueKey(stack.production, tenant, {}, { benefitId });
    const b = await issueKey(stack.production, tenant, {}, { benefitId });
    await issueKey(stack.production, tenant, {});
    const all = await call(base, 'GET', '/v1/license-keys/', { token: tenant.oat });
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ total_count: 3, max_page: 1 });
    const filtered = await call(base, 'GET', `/v1/license-keys/?benefit_id=${benefitId}&limit=1`, {
      token: tenant.pat,
    });
    expect(filtered.body.items.map((i: { id: string }) => i.id)).toEqual([a.id]);
    expect(filtered.body.pagination).toEqual({ total_count: 2, max_page: 2 });
    expect(Object.keys(filtered.body.items[0]).sort()).toEqual([...READ_KEYS].sort());

    const disabled = await call(base, 'PATCH', `/v1/license-keys/${b.id}`, {
      token: tenant.oat,
      body: { status: 'disabled', limit_activations: 4, limit_usage: 9, usage: 1 },
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ status: 'disabled', limit_activations: 4, limit_usage: 9, usage: 1 });
    expect(disabled.body.modified_at).not.toBeNull();
    const byStatus = await call(base, 'GET', '/v1/license-keys/?status=disabled', { token: tenant.oat });
    expect(byStatus.body.items.map((i: { id: string }) => i.id)).toEqual([b.id]);
    const refused = await portal('validate', { key: b.key, organization_id: tenant.organizationId });
    expect(refused.body.detail).toBe('License key is no longer active.');
    // A disabled key stays disabled when its grant is restored (only revoked keys come back).
    expect(await restoreGrant(stack.production, b.grantId)).toBe(0);

    const invalid = await call(base, 'PATCH', `/v1/license-keys/${b.id}`, {
      token: tenant.oat,
      body: { limit_activations: 0, status: 'lost' },
    });
    expect(invalid.status).toBe(422);
    const others = await call(base, 'PATCH', `/v1/license-keys/${b.id}`, { token: bob.oat, body: { usage: 0 } });
    expect(others.status).toBe(404);
  });
});

describe('rate limit zone', () => {
  it('covers exactly the unauthenticated portal routes (3/s per address, production)', () => {
    const zoned = routes
      .filter(r => r.path.includes('license-keys'))
      .filter(r => zoneOf('production', r.method.toUpperCase(), r.path)?.name === 'license_keys')
      .map(r => r.operationId)
      .sort();
    expect(zoned).toEqual([
      'customer_portal:license_keys:activate',
      'customer_portal:license_keys:deactivate',
      'customer_portal:license_keys:validate',
    ]);
  });
});

describe('expiry on the organization clock (sandbox)', () => {
  it('a key valid for a day expires when the sandbox clock moves two days on', async () => {
    const sandbox = stack.sandbox;
    const tenant = await createTenant(sandbox);
    const k = await issueKey(sandbox, tenant, { expires: { ttl: 1, timeframe: 'day' }, activations: { limit: 1 } });
    const ids = { key: k.key, organization_id: tenant.organizationId };
    const validate = () => call(sandbox.baseUrl, 'POST', '/v1/customer-portal/license-keys/validate', { body: ids });
    expect((await validate()).status).toBe(200);
    const advanced = await call(sandbox.baseUrl, 'POST', '/v1/sandbox/clock/advance', {
      token: tenant.oat,
      body: { seconds: 2 * 86_400 },
    });
    expect(advanced.status).toBe(200);
    const expired = await validate();
    expect(expired.status).toBe(404);
    expect(expired.body.detail).toBe('License key has expired.');
  });
});

describe("the customer's own keys (customer session)", () => {
  it('lists and gets its keys only; Core API tokens and other customers are refused', async () => {
    const tenant = await createTenant(stack.production);
    const mine = await issueKey(stack.production, tenant, { activations: { limit: 2 } });
    const benefitId = randomUUID();
    const second = await issueKey(stack.production, tenant, {}, { customerId: mine.customerId, benefitId });
    const theirs = await issueKey(stack.production, tenant, {});
    const session = async (customerId: string) =>
      (await call(base, 'POST', '/v1/customer-sessions/', { token: tenant.oat, body: { customer_id: customerId } }))
        .body.token as string;
    const token = await session(mine.customerId);
    await portal('activate', { key: mine.key, organization_id: tenant.organizationId, label: 'laptop' });

    const list = await call(base, 'GET', '/v1/customer-portal/license-keys/', { token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((k: { id: string }) => k.id)).toEqual([mine.id, second.id]);
    expect(Object.keys(list.body.items[0]).sort()).toEqual([...READ_KEYS].sort());
    const byBenefit = await call(base, 'GET', `/v1/customer-portal/license-keys/?benefit_id=${benefitId}`, { token });
    expect(byBenefit.body.items.map((k: { id: string }) => k.id)).toEqual([second.id]);

    const got = await call(base, 'GET', `/v1/customer-portal/license-keys/${mine.id}`, { token });
    expect(got.status).toBe(200);
    expect(got.body.activations.map((a: { label: string }) => a.label)).toEqual(['laptop']);
    const foreign = await call(base, 'GET', `/v1/customer-portal/license-keys/${theirs.id}`, { token });
    expect(foreign.status).toBe(404);
    expect((await call(base, 'GET', '/v1/customer-portal/license-keys/', { token: tenant.oat })).status).toBe(401);
    expect((await call(base, 'GET', `/v1/license-keys/${mine.id}`, { token })).status).toBe(401);
  });
});
