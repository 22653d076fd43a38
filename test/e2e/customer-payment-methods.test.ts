import { createPolar } from '@polar-sh/sdk-1/2026-10';
import { ALL_SCOPES } from '../../kit/scopes.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * A customer's saved payment methods as the merchant reads them (`/v1/customers/{id}/payment-methods` and
 * by external id), in the sandbox (test processor), through SDK 1.0.1 and plain HTTP: the card a
 * checkout saved and one added in the portal, newest first with the default flagged;
 * another organization's customer, an unknown one and a deleted one are 404; the scope is `customers:read`.
 */
let stack: TestStack;
let owner: Tenant;
let base: string;
let customerId: string;

const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: owner.oat, body });

beforeAll(async () => {
  stack = await sharedTestStack();
  owner = await createTenant(stack.sandbox);
  base = stack.sandbox.baseUrl;
  const product = await api('POST', '/v1/products/', {
    name: 'Plan',
    recurring_interval: 'month',
    prices: [{ amount_type: 'fixed', price_amount: 900 }],
  });
  const checkout = await api('POST', '/v1/checkouts/', {
    products: [product.body.id],
    customer_email: 'cards@example.com',
    external_customer_id: 'crm-42',
  });
  const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_visa' },
  });
  expect(confirmed.status).toBe(200);
  customerId = confirmed.body.customer_id;
  const added = await call(base, 'POST', '/v1/customer-portal/customers/me/payment-methods', {
    token: confirmed.body.customer_session_token,
    body: { confirmation_token_id: 'pm_card_mastercard', set_default: false, return_url: 'https://shop.example/' },
  });
  expect(added.status).toBe(201);
}, 120_000);

describe("a customer's payment methods, merchant side", () => {
  it('lists them newest first with the default flagged, by id and by external id (SDK 1.0.1)', async () => {
    const polar = createPolar({ accessToken: owner.oat, baseUrl: base });
    const byId = await polar.customers.listPaymentMethods(customerId);
    expect(byId.pagination).toEqual({ total_count: 2, max_page: 1 });
    expect(byId.items.map(m => [m.customer_id, m.type, (m as any).method_metadata.brand, m.is_default])).toEqual([
      [customerId, 'card', 'mastercard', false],
      [customerId, 'card', 'visa', true],
    ]);
    expect(await polar.customers.listPaymentMethodsExternal('crm-42')).toEqual(byId);
    const page = await api('GET', `/v1/customers/${customerId}/payment-methods?limit=1&page=2`);
    expect(page.status).toBe(200);
    expect(page.body.items.map((m: any) => m.id)).toEqual([byId.items[1].id]);
    expect(page.body.pagination).toEqual({ total_count: 2, max_page: 2 });
  });

  it("answers 404 for an unknown customer, another organization's, and an unknown external id", async () => {
    const other = await createTenant(stack.sandbox);
    const theirs = await call(base, 'POST', '/v1/customers/', { token: other.oat, body: { email: 'x@example.com' } });
    for (const path of [
      '/v1/customers/00000000-0000-4000-8000-000000000000/payment-methods',
      `/v1/customers/${theirs.body.id}/payment-methods`,
      '/v1/customers/external/nobody/payment-methods',
    ]) {
      const res = await api('GET', path);
      expect([path, res.status, res.body.error]).toEqual([path, 404, 'ResourceNotFound']);
    }
    const bad = await api('GET', '/v1/customers/not-a-uuid/payment-methods');
    expect(bad.status).toBe(422);
  });

  it('needs customers:read (a token without it is 403), and answers a deleted customer with 404', async () => {
    const token = await stack.sandbox.admin.createOrganizationAccessToken(
      owner.organizationId,
      ALL_SCOPES.filter(s => !s.startsWith('customers:')),
    );
    const refused = await call(base, 'GET', `/v1/customers/${customerId}/payment-methods`, { token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('insufficient_scope');
    const doomed = await api('POST', '/v1/customers/', { email: 'gone@example.com' });
    expect((await api('DELETE', `/v1/customers/${doomed.body.id}`)).status).toBe(204);
    expect((await api('GET', `/v1/customers/${doomed.body.id}/payment-methods`)).status).toBe(404);
  });
});
