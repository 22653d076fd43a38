import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../../support/stack.js';

/** Shared setup of the products e2e files: one stack with two tenants per file, and the helpers they share. */
export let stack: TestStack;
export let base: string;
export let alice: Tenant;
export let bob: Tenant;

/** Starts this file's own stack (`label` names its databases) before its tests and closes it after them. */
export function useProductsStack(label: string) {
  beforeAll(async () => {
    stack = await startTestStack(label);
    base = stack.production.baseUrl;
    alice = await createTenant(stack.production);
    bob = await createTenant(stack.production);
  });
  afterAll(async () => {
    await stack?.close();
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
