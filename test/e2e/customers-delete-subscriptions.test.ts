import { SubscriptionStatus } from '../../subgraphs/billing/shared/enums.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type RunningEnvironment, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Deleting a customer (`DELETE /v1/customers/{id}` and by external id) ends its billable subscriptions
 * at once, as Polar does, with the outbox events of a revoke; ended and other customers' rows stay as they are.
 */
let stack: TestStack;
let env: RunningEnvironment;
let base: string;
let alice: Tenant;
let fixtures: BillingFixtures;
let plan: Awaited<ReturnType<BillingFixtures['product']>>;

beforeAll(async () => {
  stack = await sharedTestStack();
  env = stack.production;
  base = env.baseUrl;
  alice = await createTenant(env);
  fixtures = new BillingFixtures(env);
  plan = await fixtures.product(alice.organizationId, { name: 'Plan', amount: 0 });
});

const subscription = (customerId: string, overrides: Partial<Parameters<BillingFixtures['subscription']>[0]> = {}) =>
  fixtures.subscription({
    organizationId: alice.organizationId,
    customerId,
    productId: plan.product.id,
    priceIds: [plan.price.id],
    ...overrides,
  });

interface Row {
  status: string;
  cancel_at_period_end: boolean;
  canceled_at: Date | null;
  ends_at: Date | null;
  ended_at: Date | null;
}

async function rowOf(id: string): Promise<Row> {
  const [row] = await env.environment.billing.orm.em
    .fork()
    .execute<Row[]>(
      'select status, cancel_at_period_end, canceled_at, ends_at, ended_at from billing.subscriptions where id = ?',
      [id],
    );
  return row;
}

async function eventsOf(subscriptionId: string): Promise<string[]> {
  const rows = await env.environment.billing.orm.em
    .fork()
    .execute<{ type: string }[]>("select type from billing.events where payload->>'id' = ? order by created_at, id", [
      subscriptionId,
    ]);
  return rows.map(r => r.type);
}

describe('deleting a customer', () => {
  it('revokes its active, trialing, past-due and cancel-at-period-end subscriptions in the same change', async () => {
    const customer = await fixtures.customer(alice.organizationId);
    const other = await fixtures.customer(alice.organizationId);
    const live = await Promise.all([
      subscription(customer.id),
      subscription(customer.id, { status: SubscriptionStatus.TRIALING }),
      subscription(customer.id, { status: SubscriptionStatus.PAST_DUE }),
      subscription(customer.id, {
        cancelAtPeriodEnd: true,
        canceledAt: new Date('2026-01-20T00:00:00Z'),
        endsAt: new Date('2099-01-01T00:00:00Z'),
      }),
    ]);
    const ended = await subscription(customer.id, {
      status: SubscriptionStatus.CANCELED,
      canceledAt: new Date('2026-01-10T00:00:00Z'),
      endsAt: new Date('2026-01-10T00:00:00Z'),
      endedAt: new Date('2026-01-10T00:00:00Z'),
    });
    const theirs = await subscription(other.id);

    const before = Date.now();
    const res = await call(base, 'DELETE', `/v1/customers/${customer.id}`, { token: alice.oat });
    expect(res.status).toBe(204);

    for (const s of live) {
      const row = await rowOf(s.id);
      expect(row).toMatchObject({ status: 'canceled', cancel_at_period_end: false });
      expect(row.ended_at).not.toBeNull();
      expect(new Date(row.ended_at!).getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(new Date(row.ends_at!).getTime()).toBe(new Date(row.ended_at!).getTime());
      expect(await eventsOf(s.id)).toEqual(['subscription.updated', 'subscription.canceled', 'subscription.revoked']);
    }
    expect(new Date((await rowOf(ended.id)).ended_at!)).toEqual(new Date('2026-01-10T00:00:00Z'));
    expect(await eventsOf(ended.id)).toEqual([]);
    expect(await rowOf(theirs.id)).toMatchObject({ status: 'active', ended_at: null });
    expect(await eventsOf(theirs.id)).toEqual([]);
  });

  it('by external id does the same', async () => {
    const customer = await fixtures.customer(alice.organizationId, { externalId: `ext-${Date.now()}` });
    const s = await subscription(customer.id);
    const res = await call(base, 'DELETE', `/v1/customers/external/${encodeURIComponent(customer.externalId!)}`, {
      token: alice.oat,
    });
    expect(res.status).toBe(204);
    expect(await rowOf(s.id)).toMatchObject({ status: 'canceled' });
    expect(await eventsOf(s.id)).toEqual(['subscription.updated', 'subscription.canceled', 'subscription.revoked']);
  });
});
