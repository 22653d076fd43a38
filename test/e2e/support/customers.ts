import { call, createTenant, type Tenant, type TestStack } from '../../support/stack.js';
import { sharedTestStack } from '../../support/shared-stack.js';

/** Shared setup of the customers e2e files: two tenants per file on the shared stack, and the helpers they share. */
export let stack: TestStack;
export let base: string;
export let alice: Tenant;
export let bob: Tenant;

/** Before this file's tests: the worker's shared stack (test/support/shared-stack.ts) and this file's own tenants. */
export function useCustomersStack() {
  beforeAll(async () => {
    stack = await sharedTestStack();
    base = stack.production.baseUrl;
    alice = await createTenant(stack.production);
    bob = await createTenant(stack.production);
  });
}

export const CUSTOMER_KEYS = [
  'id',
  'created_at',
  'modified_at',
  'metadata',
  'external_id',
  'email',
  'email_verified',
  'type',
  'name',
  'billing_name',
  'billing_address',
  'tax_id',
  'locale',
  'organization_id',
  'default_payment_method_id',
  'deleted_at',
  'first_user_event_at',
  'avatar_url',
];

export let counter = 0;
export const unique = (label: string) => `${label}-${Date.now().toString(36)}-${(counter += 1)}`;
export const emailOf = (label: string) => `${unique(label)}@example.com`;

export async function createCustomer(tenant: Tenant, body: Record<string, unknown> = {}) {
  const res = await call(base, 'POST', '/v1/customers/', { token: tenant.oat, body: { email: emailOf('c'), ...body } });
  expect(res.status).toBe(201);
  return res.body;
}
