import { randomUUID } from 'node:crypto';
import { createPolar } from '@polar-sh/sdk-1/2026-10';
import { buyWithBenefits, createBenefit } from '../support/portal-benefits.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { createCustomer } from './support/license-keys.js';

/**
 * License-key rotate (docs/license-keys-and-files.md#rotate): a key granted by a real purchase, rotated
 * through SDK 1.0.1 on the Core API and on the portal; the old text stops validating, the rest stays.
 */
let stack: TestStack;
let base: string;
let shop: Tenant;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  shop = await createTenant(stack.production);
});

const polar = (accessToken: string) => createPolar({ accessToken, baseUrl: base });

/** A customer who bought a product with an `acme` license-key benefit; its key, as the merchant reads it. */
async function boughtKey(tenant: Tenant = shop) {
  const benefit = await createBenefit(stack.production, tenant, {
    type: 'license_keys',
    description: 'Desktop app',
    properties: { prefix: 'acme', activations: { limit: 2, enable_customer_admin: true }, limit_usage: 10 },
  });
  const customerId = await createCustomer(stack.production, tenant);
  await buyWithBenefits(stack.production, tenant, customerId, [benefit.id]);
  const keys = await call(base, 'GET', `/v1/license-keys/?benefit_id=${benefit.id}`, { token: tenant.oat });
  return { benefitId: benefit.id, customerId, key: keys.body.items[0] as Record<string, any> };
}

const validate = (tenant: Tenant, key: string) =>
  call(base, 'POST', '/v1/customer-portal/license-keys/validate', {
    body: { key, organization_id: tenant.organizationId },
  });

describe('POST /v1/license-keys/{id}/rotate', () => {
  it('gives the key a new text with the benefit prefix; the old one stops validating; the rest stays', async () => {
    const { key, customerId } = await boughtKey();
    const activation = await call(base, 'POST', '/v1/customer-portal/license-keys/activate', {
      body: { key: key.key, organization_id: shop.organizationId, label: 'laptop' },
    });
    expect(activation.status).toBe(200);
    expect((await validate(shop, key.key)).status).toBe(200);

    const rotated = await polar(shop.oat).licenseKeys.rotate(key.id);
    expect(rotated.key).toMatch(/^ACME-[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    expect(rotated.key).not.toBe(key.key);
    expect(rotated).toMatchObject({
      id: key.id,
      display_key: `****-${rotated.key.slice(-6)}`,
      status: 'granted',
      usage: 0,
      validations: 1,
      limit_activations: 2,
      limit_usage: 10,
      expires_at: key.expires_at,
      customer_id: customerId,
    });
    expect(rotated.modified_at).not.toBeNull();

    const old = await validate(shop, key.key);
    expect(old.status).toBe(404);
    expect(old.body).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    const fresh = await validate(shop, rotated.key);
    expect(fresh.status).toBe(200);
    expect(fresh.body.validations).toBe(2);
    const got = await call(base, 'GET', `/v1/license-keys/${key.id}`, { token: shop.oat });
    expect(got.body.activations.map((a: { id: string }) => a.id)).toEqual([activation.body.id]);

    // The grant shows the new display key, as Polar keeps it in the grant's properties.
    const grants = await call(base, 'GET', `/v1/benefit-grants/?customer_id=${customerId}`, { token: shop.oat });
    expect(grants.body.items[0].properties).toMatchObject({
      license_key_id: key.id,
      display_key: rotated.display_key,
    });
  });

  it('rotates a disabled key; refuses a revoked one with RotateNotPermitted and changes nothing', async () => {
    const { key } = await boughtKey();
    const disable = { token: shop.oat, body: { status: 'disabled' } };
    expect((await call(base, 'PATCH', `/v1/license-keys/${key.id}`, disable)).status).toBe(200);
    const disabled = await call(base, 'POST', `/v1/license-keys/${key.id}/rotate`, { token: shop.oat });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id: key.id, status: 'disabled' });

    const revoke = { token: shop.oat, body: { status: 'revoked' } };
    expect((await call(base, 'PATCH', `/v1/license-keys/${key.id}`, revoke)).status).toBe(200);
    const refused = await call(base, 'POST', `/v1/license-keys/${key.id}/rotate`, { token: shop.oat });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'RotateNotPermitted',
      detail:
        'License key cannot be rotated in its current status. Current status: revoked. Allowed statuses: disabled, granted.',
    });
    const after = await call(base, 'GET', `/v1/license-keys/${key.id}`, { token: shop.oat });
    expect(after.body.key).toBe(disabled.body.key);
  });

  it('needs license_keys:write; another organization or no key is a 404; a bad id a 422', async () => {
    const { key } = await boughtKey();
    const reader = await stack.production.admin.createOrganizationAccessToken(shop.organizationId, [
      'license_keys:read',
    ]);
    const readOnly = await call(base, 'POST', `/v1/license-keys/${key.id}/rotate`, { token: reader });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error).toBe('insufficient_scope');
    const other = await createTenant(stack.production);
    const foreign = await call(base, 'POST', `/v1/license-keys/${key.id}/rotate`, { token: other.oat });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    const absent = await call(base, 'POST', `/v1/license-keys/${randomUUID()}/rotate`, { token: shop.oat });
    expect(absent.status).toBe(404);
    const bad = await call(base, 'POST', '/v1/license-keys/not-a-uuid/rotate', { token: shop.oat });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'id'] });
    const unchanged = await call(base, 'GET', `/v1/license-keys/${key.id}`, { token: shop.oat });
    expect(unchanged.body.key).toBe(key.key);
  });
});

describe('POST /v1/customer-portal/license-keys/{id}/rotate', () => {
  it("rotates the session customer's own key only", async () => {
    const mine = await boughtKey();
    const theirs = await boughtKey();
    const session = await call(base, 'POST', '/v1/customer-sessions/', {
      token: shop.oat,
      body: { customer_id: mine.customerId },
    });
    const token = session.body.token as string;

    const rotated = await polar(token).customerPortal.licenseKeys.rotate(mine.key.id);
    expect(rotated).toMatchObject({ id: mine.key.id, customer_id: mine.customerId, status: 'granted' });
    expect(rotated.key).not.toBe(mine.key.key);
    expect((await validate(shop, mine.key.key)).status).toBe(404);
    expect((await validate(shop, rotated.key)).status).toBe(200);

    const foreign = await call(base, 'POST', `/v1/customer-portal/license-keys/${theirs.key.id}/rotate`, { token });
    expect(foreign.status).toBe(404);
    const organization = await call(base, 'POST', `/v1/customer-portal/license-keys/${mine.key.id}/rotate`, {
      token: shop.oat,
    });
    expect(organization.status).toBe(401);
    const anonymous = await call(base, 'POST', `/v1/customer-portal/license-keys/${mine.key.id}/rotate`, {});
    expect(anonymous.status).toBe(401);
    const customerOnCore = await call(base, 'POST', `/v1/license-keys/${mine.key.id}/rotate`, { token });
    expect(customerOnCore.status).toBe(401);
    expect((await validate(shop, theirs.key.key)).status).toBe(200);
  });
});
