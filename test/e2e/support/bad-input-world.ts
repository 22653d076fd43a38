import { randomUUID } from 'node:crypto';
import { call, createTenant, type Tenant, type TestStack } from '../../support/stack.js';
import { sharedTestStack } from '../../support/shared-stack.js';

/** What the bad-input tests send their values to: a tenant with a subscription and a customer session. */
export interface BadInputWorld {
  stack: TestStack;
  base: string;
  alice: Tenant;
  customerToken: string;
  subscriptionId: string;
}

export async function startBadInputWorld(): Promise<BadInputWorld> {
  const stack = await sharedTestStack();
  const base = stack.production.baseUrl;
  const alice = await createTenant(stack.production);
  const post = async (path: string, body: unknown) => {
    const res = await call(base, 'POST', path, { token: alice.oat, body });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const product = await post('/v1/products/', {
    name: 'Free',
    recurring_interval: 'month',
    prices: [{ amount_type: 'free' }],
  });
  const customer = await post('/v1/customers/', { email: `bad-input-${randomUUID()}@example.com` });
  const subscriptionId = (await post('/v1/subscriptions/', { product_id: product.id, customer_id: customer.id })).id;
  const customerToken = (await post('/v1/customer-sessions/', { customer_id: customer.id })).token;
  return { stack, base, alice, customerToken, subscriptionId };
}
