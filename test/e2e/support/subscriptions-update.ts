import { RecurringInterval } from '../../../subgraphs/billing/shared/enums.js';
import { ProductPrice } from '../../../subgraphs/billing/products/product-price.entity.js';
import { Product } from '../../../subgraphs/billing/products/product.entity.js';
import { BillingFixtures } from '../../support/subscription-fixtures.js';
import { call, createTenant, type RunningEnvironment, type Tenant, type TestStack } from '../../support/stack.js';
import { sharedTestStack } from '../../support/shared-stack.js';

/** Shared setup of the subscriptions-update e2e files: two tenants per file on the shared stack, and the helpers they share. */
export let stack: TestStack;
export let env: RunningEnvironment;
export let base: string;
export let alice: Tenant;
export let bob: Tenant;
export let fixtures: BillingFixtures;
export let customerId: string;
export let freeA: { product: Product; price: ProductPrice };
export let freeB: { product: Product; price: ProductPrice };
export let paid: { product: Product; price: ProductPrice };

/** Before this file's tests: the worker's shared stack (test/support/shared-stack.ts) and this file's own tenants. */
export function useSubscriptionsUpdateStack() {
  beforeAll(async () => {
    stack = await sharedTestStack();
    env = stack.production;
    base = env.baseUrl;
    alice = await createTenant(env);
    bob = await createTenant(env);
    fixtures = new BillingFixtures(env);
    customerId = (await fixtures.customer(alice.organizationId)).id;
    freeA = await fixtures.product(alice.organizationId, { name: 'Free A', amount: 0 });
    freeB = await fixtures.product(alice.organizationId, { name: 'Free B', amount: 0 });
    paid = await fixtures.product(alice.organizationId, { name: 'Pro', amount: 1500 });
  });
}

export async function freeSubscription(overrides: Partial<Parameters<BillingFixtures['subscription']>[0]> = {}) {
  return fixtures.subscription({
    organizationId: alice.organizationId,
    customerId,
    productId: freeA.product.id,
    priceIds: [freeA.price.id],
    ...overrides,
  });
}

export const patch = (id: string, body: unknown, token = alice.oat) =>
  call(base, 'PATCH', `/v1/subscriptions/${id}`, { token, body });
export const get = (id: string) => call(base, 'GET', `/v1/subscriptions/${id}`, { token: alice.oat });

export async function eventsOf(subscriptionId: string): Promise<string[]> {
  const rows = await env.environment.billing.orm.em
    .fork()
    .execute<{ type: string }[]>("select type from billing.events where payload->>'id' = ? order by created_at, id", [
      subscriptionId,
    ]);
  return rows.map(r => r.type);
}

export const ALREADY_CANCELED = {
  error: 'AlreadyCanceledSubscription',
  detail: 'This subscription is already canceled or will be at the end of the period.',
};

void RecurringInterval;
