import pg from 'pg';
import { SubscriptionStatus } from '../../subgraphs/billing/shared/enums.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type RunningEnvironment, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/** `DELETE /v1/subscriptions/{id}` (subscriptions:revoke) and `{"revoke": true}` (docs/interface.md#subscription-changes, docs/polar/subscription-lifecycle.md#revoke). */
let stack: TestStack;
let env: RunningEnvironment;
let base: string;
let alice: Tenant;
let bob: Tenant;
let fixtures: BillingFixtures;
let customerId: string;
let plan: Awaited<ReturnType<BillingFixtures['product']>>;

beforeAll(async () => {
  stack = await sharedTestStack();
  env = stack.production;
  base = env.baseUrl;
  alice = await createTenant(env);
  bob = await createTenant(env);
  fixtures = new BillingFixtures(env);
  customerId = (await fixtures.customer(alice.organizationId)).id;
  plan = await fixtures.product(alice.organizationId, { name: 'Plan', amount: 0 });
});

const subscription = (overrides: Partial<Parameters<BillingFixtures['subscription']>[0]> = {}) =>
  fixtures.subscription({
    organizationId: alice.organizationId,
    customerId,
    productId: plan.product.id,
    priceIds: [plan.price.id],
    ...overrides,
  });
const revoke = (id: string, token = alice.oat) => call(base, 'DELETE', `/v1/subscriptions/${id}`, { token });

async function eventsOf(subscriptionId: string): Promise<string[]> {
  const rows = await env.environment.billing.orm.em
    .fork()
    .execute<{ type: string }[]>("select type from billing.events where payload->>'id' = ? order by created_at, id", [
      subscriptionId,
    ]);
  return rows.map(r => r.type);
}

const ALREADY_CANCELED = {
  error: 'AlreadyCanceledSubscription',
  detail: 'This subscription is already canceled or will be at the end of the period.',
};

describe('subscriptions:revoke', () => {
  it.each([
    SubscriptionStatus.ACTIVE,
    SubscriptionStatus.TRIALING,
    SubscriptionStatus.PAST_DUE,
    SubscriptionStatus.PAUSED,
    SubscriptionStatus.INCOMPLETE,
  ])('moves %s to canceled at once and answers 200 with the subscription', async status => {
    const s = await subscription({ status });
    const res = await revoke(s.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: s.id,
      status: 'canceled',
      cancel_at_period_end: false,
      customer: { id: customerId },
      product: { id: plan.product.id },
    });
    expect(res.body.canceled_at).toEqual(expect.any(String));
    expect(res.body.ends_at).toBe(res.body.canceled_at);
    expect(res.body.ended_at).toBe(res.body.canceled_at);
    expect(await eventsOf(s.id)).toEqual(['subscription.updated', 'subscription.canceled', 'subscription.revoked']);
    const got = await call(base, 'GET', `/v1/subscriptions/${s.id}`, { token: alice.oat });
    expect(got.body.status).toBe('canceled');
  });

  it('revoking twice → 403 AlreadyCanceledSubscription, nothing changed', async () => {
    const s = await subscription();
    const first = await revoke(s.id);
    const second = await revoke(s.id);
    expect(second.status).toBe(403);
    expect(second.body).toEqual(ALREADY_CANCELED);
    const got = await call(base, 'GET', `/v1/subscriptions/${s.id}`, { token: alice.oat });
    expect(got.body.ended_at).toBe(first.body.ended_at);
    expect(await eventsOf(s.id)).toHaveLength(3);
  });

  it('a subscription set to cancel at period end → 403 (docs/interface.md#subscription-changes rule 1)', async () => {
    const end = new Date(Date.now() + 10 * 86_400_000);
    const s = await subscription({
      cancelAtPeriodEnd: true,
      canceledAt: new Date(),
      endsAt: end,
      currentPeriodEnd: end,
    });
    const res = await revoke(s.id);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(ALREADY_CANCELED);
  });

  it('`{"revoke": true}` through PATCH does the same, with reason and comment', async () => {
    const s = await subscription();
    const res = await call(base, 'PATCH', `/v1/subscriptions/${s.id}`, {
      token: alice.pat,
      body: { revoke: true, customer_cancellation_reason: 'switched_service', customer_cancellation_comment: 'bye' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'canceled',
      customer_cancellation_reason: 'switched_service',
      customer_cancellation_comment: 'bye',
    });
    const falseRevoke = await call(base, 'PATCH', `/v1/subscriptions/${(await subscription()).id}`, {
      token: alice.pat,
      body: { revoke: false },
    });
    expect(falseRevoke.status).toBe(422);
    expect(falseRevoke.body.detail[0]).toMatchObject({ type: 'literal_error', loc: ['body', 'revoke'] });
  });

  it('while another update holds the lock → 409 at once, still active', async () => {
    const s = await subscription();
    const client = new pg.Client({ connectionString: env.environment.billing.orm.config.get('clientUrl') });
    await client.connect();
    try {
      await client.query('begin');
      await client.query("select pg_advisory_xact_lock(hashtextextended('subscription:' || $1::text, 0))", [s.id]);
      const started = Date.now();
      const res = await revoke(s.id);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'SubscriptionLocked', detail: 'This subscription is pending an update.' });
    } finally {
      await client.query('rollback');
      await client.end();
    }
    const got = await call(base, 'GET', `/v1/subscriptions/${s.id}`, { token: alice.oat });
    expect(got.body.status).toBe('active');
    expect((await revoke(s.id)).status).toBe(200);
  });

  it('another organization and unknown ids → 404; a read-only token → 403 insufficient_scope', async () => {
    const s = await subscription();
    expect((await revoke(s.id, bob.oat)).status).toBe(404);
    expect((await revoke('00000000-0000-4000-8000-000000000000')).body).toEqual({
      error: 'ResourceNotFound',
      detail: 'Not found',
    });
    const readOnly = await env.admin.createOrganizationAccessToken(alice.organizationId, ['subscriptions:read']);
    expect((await revoke(s.id, readOnly)).status).toBe(403);
    const got = await call(base, 'GET', `/v1/subscriptions/${s.id}`, { token: alice.oat });
    expect(got.body.status).toBe('active');
  });
});
