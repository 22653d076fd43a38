import { ManualClock } from '../../kit/clock.js';
import { benefitHelpers } from '../support/benefits.js';
import { uploadFile } from '../support/portal-benefits.js';
import { settleJobs } from '../support/sql-statements.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Benefits over plain HTTP in the sandbox: the past-due grace period (with the test's clock and with the
 * sandbox clock), one-time orders, deleting a benefit, the state by external id, and the signed-in
 * user's benefits (PAT yes, OAT 401).
 */
const clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));
let stack: TestStack;
let owner: Tenant;
let base: string;
const { api, settle, benefit, product, sell, state } = benefitHelpers(() => ({ stack, owner, base }));

beforeAll(async () => {
  stack = await sharedTestStack(clock);
  owner = await createTenant(stack.sandbox);
  base = stack.sandbox.baseUrl;
}, 120_000);

describe('past due: the organization grace period', () => {
  /** What the dunning engine does when a renewal charge fails: `past_due` and its event, one transaction. */
  const pastDue = async (subscriptionId: string) => {
    const em = stack.sandbox.environment.billing.orm.em.fork();
    await em.transactional(async tx => {
      await tx.execute(`update billing.subscriptions set status = 'past_due', past_due_at = ? where id = ?`, [
        clock.now(),
        subscriptionId,
      ]);
      await tx.execute(
        `insert into billing.events (id, organization_id, type, payload, created_at) values (gen_random_uuid(), ?, 'subscription.past_due', ?::jsonb, ?)`,
        [owner.organizationId, JSON.stringify({ id: subscriptionId, status: 'past_due' }), clock.now()],
      );
    });
  };
  const grace = (days: number) =>
    call(base, 'PATCH', `/v1/organizations/${owner.organizationId}`, {
      token: owner.pat,
      body: {
        subscription_settings: {
          allow_multiple_subscriptions: false,
          proration_behavior: 'prorate',
          benefit_revocation_grace_period: days,
          prevent_trial_abuse: false,
          allow_customer_updates: true,
        },
      },
    });

  it('keeps the benefits of a past-due subscription for the grace period, then revokes them', async () => {
    const perk = await benefit({ type: 'custom', description: 'Grace perk', properties: {} });
    const plan = await product({ name: 'Grace plan' });
    await api('POST', `/v1/products/${plan}/benefits`, { benefits: [perk.id] });
    expect((await grace(2)).status).toBe(200);
    const order = await sell(plan, 'late@example.com');
    await settle(
      () => state(order.customer_id),
      res => res.body.granted_benefits?.length === 1,
    );

    await pastDue(order.subscription_id);
    await settleJobs(stack.sandbox.environment.billing, clock);
    expect((await state(order.customer_id)).body.granted_benefits).toHaveLength(1);

    clock.advance(2 * 86_400_000 + 1000);
    const revoked = await settle(
      () => state(order.customer_id),
      res => res.body.granted_benefits?.length === 0,
    );
    expect(revoked.body.granted_benefits).toEqual([]);
    expect((await grace(0)).status).toBe(200);
  });

  it('revokes at once when the grace period is 0', async () => {
    const perk = await benefit({ type: 'custom', description: 'No grace perk', properties: {} });
    const plan = await product({ name: 'Strict plan' });
    await api('POST', `/v1/products/${plan}/benefits`, { benefits: [perk.id] });
    const order = await sell(plan, 'strict@example.com');
    await settle(
      () => state(order.customer_id),
      res => res.body.granted_benefits?.length === 1,
    );
    await pastDue(order.subscription_id);
    const revoked = await settle(
      () => state(order.customer_id),
      res => res.body.granted_benefits?.length === 0,
    );
    expect(revoked.body.granted_benefits).toEqual([]);
  });
});

describe('the sandbox clock', () => {
  it("revokes a past-due subscription's benefits at the end of the grace period, within the advance", async () => {
    const shop = await createTenant(stack.sandbox);
    const as = (method: string, path: string, body?: unknown) => call(base, method, path, { token: shop.oat, body });
    const perk = await as('POST', '/v1/benefits/', {
      type: 'feature_flag',
      description: 'Clocked perk',
      properties: {},
    });
    const plan = await as('POST', '/v1/products/', {
      name: 'Clocked plan',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 900 }],
    });
    await as('POST', `/v1/products/${plan.body.id}/benefits`, { benefits: [perk.body.id] });
    const settings = await call(base, 'PATCH', `/v1/organizations/${shop.organizationId}`, {
      token: shop.pat,
      body: {
        subscription_settings: {
          allow_multiple_subscriptions: false,
          proration_behavior: 'prorate',
          benefit_revocation_grace_period: 3,
          prevent_trial_abuse: false,
          allow_customer_updates: true,
        },
      },
    });
    expect(settings.status).toBe(200);
    const order = await sell(plan.body.id, 'clocked@example.com', shop.oat);
    const stateOf = () => as('GET', `/v1/customers/${order.customer_id}/state`);
    await settle(stateOf, res => res.body.granted_benefits?.length === 1);
    const now = (await as('GET', '/v1/sandbox/clock')).body.now as string;
    await stack.sandbox.environment.billing.orm.em.fork().transactional(async tx => {
      await tx.execute(`update billing.subscriptions set status = 'past_due', past_due_at = ? where id = ?`, [
        new Date(now),
        order.subscription_id,
      ]);
      await tx.execute(
        `insert into billing.events (id, organization_id, type, payload, created_at) values (gen_random_uuid(), ?, 'subscription.past_due', ?::jsonb, ?)`,
        [shop.organizationId, JSON.stringify({ id: order.subscription_id }), new Date(now)],
      );
    });
    // Two days in: still within the grace period (the advance runs the queued reconcile itself).
    expect((await as('POST', '/v1/sandbox/clock/advance', { seconds: 2 * 86_400 })).status).toBe(200);
    expect((await stateOf()).body.granted_benefits).toHaveLength(1);
    // Past the third day: revoked by the time the advance answers, stamped with the grace period's end.
    expect((await as('POST', '/v1/sandbox/clock/advance', { seconds: 2 * 86_400 })).status).toBe(200);
    expect((await stateOf()).body.granted_benefits).toEqual([]);
    const grants = await as('GET', `/v1/benefit-grants/?customer_id=${order.customer_id}`);
    expect(grants.body.items[0].revoked_at).toBe(new Date(new Date(now).getTime() + 3 * 86_400_000).toISOString());
  });
});

describe('one-time orders, deleting a benefit, and the user', () => {
  it("keeps a one-time order's benefits through a refund, and revokes them with `revoke_benefits`", async () => {
    const file = await uploadFile(stack.sandbox, owner, 'samples.txt', Buffer.from('a sample\n'));
    const files = await benefit({
      type: 'downloadables',
      description: 'Sample pack',
      properties: { files: [file.id] },
    });
    const pack = await product({ name: 'Sample pack', recurring_interval: null });
    await api('POST', `/v1/products/${pack}/benefits`, { benefits: [files.id] });
    const order = await sell(pack, 'sampler@example.com');
    const granted = await settle(
      () => state(order.customer_id),
      res => res.body.granted_benefits?.length === 1,
    );
    expect(granted.body.granted_benefits[0].properties).toEqual({ files: [file.id] });
    // What the refunds domain records (Polar's Refund wire body), in its own transaction.
    const refund = async (revoke: boolean) =>
      stack.sandbox.environment.billing.orm.em
        .fork()
        .execute(
          `insert into billing.events (id, organization_id, type, payload, created_at) values (gen_random_uuid(), ?, 'refund.created', ?::jsonb, ?)`,
          [
            owner.organizationId,
            JSON.stringify({
              id: crypto.randomUUID(),
              order_id: order.id,
              status: 'succeeded',
              revoke_benefits: revoke,
            }),
            clock.now(),
          ],
        );
    await refund(false);
    await settleJobs(stack.sandbox.environment.billing, clock);
    expect((await state(order.customer_id)).body.granted_benefits).toHaveLength(1);
    await refund(true);
    const revoked = await settle(
      () => state(order.customer_id),
      res => res.body.granted_benefits?.length === 0,
    );
    expect(revoked.body.granted_benefits).toEqual([]);
    // A later reconcile of the order (another event) does not give them back.
    await api('POST', `/v1/products/${pack}/benefits`, { benefits: [files.id] });
    await settleJobs(stack.sandbox.environment.billing, clock);
    expect((await state(order.customer_id)).body.granted_benefits).toEqual([]);
  });

  it('grants a paid one-time order; deleting the benefit revokes the grant and hides it', async () => {
    const download = await benefit({ type: 'custom', description: 'Ebook', properties: { note: 'Enjoy' } });
    const ebook = await product({ name: 'Ebook', recurring_interval: null });
    await api('POST', `/v1/products/${ebook}/benefits`, { benefits: [download.id] });
    const order = await sell(ebook, 'reader@example.com');
    const granted = await settle(
      () => state(order.customer_id),
      res => res.body.granted_benefits?.length === 1,
    );
    expect(granted.body.granted_benefits[0]).toMatchObject({ benefit_id: download.id });
    const grants = await api('GET', `/v1/benefit-grants/?customer_id=${order.customer_id}`);
    expect(grants.body.items[0]).toMatchObject({ order_id: order.id, subscription_id: null, is_granted: true });

    expect((await api('DELETE', `/v1/benefits/${download.id}`)).status).toBe(204);
    expect((await api('GET', `/v1/benefits/${download.id}`)).status).toBe(404);
    expect((await state(order.customer_id)).body.granted_benefits).toEqual([]);
    expect((await api('GET', `/v1/products/${ebook}`)).body.benefits).toEqual([]);
  });

  it("answers the signed-in user's benefits as a customer of any organization; OAT is 401", async () => {
    const merchant = await createTenant(stack.sandbox);
    const perk = await call(base, 'POST', '/v1/benefits/', {
      token: merchant.oat,
      body: { type: 'custom', description: 'Sticker pack', properties: {} },
    });
    const goods = await call(base, 'POST', '/v1/products/', {
      token: merchant.oat,
      body: { name: 'Stickers', prices: [{ amount_type: 'fixed', price_amount: 500 }] },
    });
    await call(base, 'POST', `/v1/products/${goods.body.id}/benefits`, {
      token: merchant.oat,
      body: { benefits: [perk.body.id] },
    });
    const order = await sell(goods.body.id, owner.email, merchant.oat);
    await settle(
      () => call(base, 'GET', `/v1/customers/${order.customer_id}/state`, { token: merchant.oat }),
      res => res.body.granted_benefits?.length === 1,
    );
    const mine = await call(base, 'GET', '/v1/users/benefit', { token: owner.pat });
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((b: { id: string }) => b.id)).toEqual([perk.body.id]);
    expect(mine.body.pagination).toEqual({ total_count: 1, max_page: 1 });
    const listed = await call(base, 'GET', '/v1/users/benefits/', { token: owner.pat });
    expect(listed.body).toEqual(mine.body);
    const one = await call(base, 'GET', `/v1/users/benefits/${perk.body.id}`, { token: owner.pat });
    expect(one.body).toMatchObject({ id: perk.body.id, description: 'Sticker pack' });
    expect((await call(base, 'GET', '/v1/users/benefits/', { token: merchant.pat })).body.items).toEqual([]);

    const refused = await call(base, 'GET', '/v1/users/benefit', { token: owner.oat });
    expect(refused.status).toBe(401);
    expect((await call(base, 'GET', `/v1/users/benefits/${perk.body.id}`, { token: owner.oat })).status).toBe(401);
    expect((await call(base, 'GET', '/v1/users/benefit')).status).toBe(401);
  });

  it('reads the state by external id, and 404 for another organization', async () => {
    const customer = await api('POST', '/v1/customers/', { email: 'ext@example.com', external_id: 'ext-1' });
    const byExternal = await api('GET', '/v1/customers/external/ext-1/state');
    expect(byExternal.status).toBe(200);
    expect(byExternal.body).toMatchObject({ id: customer.body.id, external_id: 'ext-1', granted_benefits: [] });
    const stranger = await createTenant(stack.sandbox);
    expect((await call(base, 'GET', `/v1/customers/${customer.body.id}/state`, { token: stranger.oat })).status).toBe(
      404,
    );
  });
});
