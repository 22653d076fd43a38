import { call, createTenant, type Tenant, type TestStack } from '../../support/stack.js';
import { sharedTestStack } from '../../support/shared-stack.js';

/** Shared setup of the products e2e files: two tenants per file on the shared stack, and the helpers they share. */
export let stack: TestStack;
export let base: string;
export let alice: Tenant;
export let bob: Tenant;

/** Before this file's tests: the worker's shared stack (test/support/shared-stack.ts) and this file's own tenants. */
export function useProductsStack() {
  beforeAll(async () => {
    stack = await sharedTestStack();
    base = stack.production.baseUrl;
    alice = await createTenant(stack.production);
    bob = await createTenant(stack.production);
  });
}

export const PRODUCT_KEYS = [
  'id',
  'created_at',
  'modified_at',
  'trial_interval',
  'trial_interval_count',
  'name',
  'description',
  'visibility',
  'recurring_interval',
  'recurring_interval_count',
  'meter_interval',
  'meter_interval_count',
  'is_recurring',
  'is_archived',
  'is_deletable',
  'organization_id',
  'metadata',
  'prices',
  'benefits',
  'medias',
  'attached_custom_fields',
];
export const PRICE_KEYS = [
  'created_at',
  'modified_at',
  'id',
  'source',
  'amount_type',
  'price_currency',
  'tax_behavior',
  'is_archived',
  'product_id',
  'type',
  'recurring_interval',
];

export const monthly = (name = 'Pro monthly', extra: Record<string, unknown> = {}) => ({
  name,
  recurring_interval: 'month',
  prices: [{ amount_type: 'fixed', price_amount: 1500 }],
  ...extra,
});

export async function create(token: string, body: Record<string, unknown>) {
  const res = await call(base, 'POST', '/v1/products/', { token, body });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body;
}
