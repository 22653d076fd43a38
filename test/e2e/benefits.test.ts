import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../kit/clock.js';
import { settleJobs } from '../support/sql-statements.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';

/**
 * Benefits over plain HTTP in the sandbox (test processor): CRUD and its 422s, a product's benefits,
 * grants following a sale, a cancel at period end and a revoke (driven by the outbox trigger's
 * `benefits.reconcile` jobs), the customer state after each step, the outbox rows, deleting a benefit,
 * and the signed-in user's benefits (PAT yes, OAT 401).
 */
const clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));
let stack: TestStack;
let owner: Tenant;
let base: string;

const api = (method: string, path: string, body?: unknown, token = owner.oat) =>
  call(base, method, path, { token, body });

/** Runs due jobs until `check` passes (the worker loop may hold a job a moment; we wait for it). */
async function settle<T>(check: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await check();
  for (let i = 0; i < 50 && !done(value); i++) {
    await stack.sandbox.environment.billing.jobs.drain();
    await new Promise(resolve => setTimeout(resolve, 100));
    value = await check();
  }
  return value;
}

const benefit = async (body: Record<string, unknown>) => {
  const res = await api('POST', '/v1/benefits/', body);
  expect(res.status).toBe(201);
  return res.body;
};
const product = async (body: Record<string, unknown>) => {
  const res = await api('POST', '/v1/products/', {
    recurring_interval: 'month',
    prices: [{ amount_type: 'fixed', price_amount: 1500 }],
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
};
const sell = async (productId: string, email: string, token = owner.oat) => {
  const checkout = await api('POST', '/v1/checkouts/', { products: [productId], customer_email: email }, token);
  expect(checkout.status).toBe(201);
  const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_visa' },
  });
  expect(confirmed.status).toBe(200);
  const orders = await settle(
    () => api('GET', `/v1/orders/?checkout_id=${checkout.body.id}`, undefined, token),
    res => res.body.items?.length === 1,
  );
  return orders.body.items[0];
};
const state = (customerId: string) => api('GET', `/v1/customers/${customerId}/state`);
const outbox = async (types: string[]) => {
  const em = stack.sandbox.environment.billing.orm.em.fork();
  return em.execute<{ type: string; payload: Record<string, any> }[]>(
    `select type, payload from billing.events where type in (${types.map(() => '?').join(', ')}) order by created_at, id`,
    types,
  );
};

beforeAll(async () => {
  stack = await startTestStack('benefits', clock);
  owner = await createTenant(stack.sandbox);
  base = stack.sandbox.baseUrl;
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

describe('benefits CRUD', () => {
  it('creates, reads, lists, updates each type with its properties and metadata', async () => {
    const note = await benefit({
      type: 'custom',
      description: 'Priority support',
      properties: { note: 'Write to us' },
    });
    expect(note).toMatchObject({
      type: 'custom',
      description: 'Priority support',
      selectable: true,
      deletable: true,
      is_deleted: false,
      organization_id: owner.organizationId,
      metadata: {},
      visibility: 'public',
      properties: { note: 'Write to us' },
    });
    const keys = await benefit({
      type: 'license_keys',
      description: 'License key',
      properties: { prefix: 'ACME', activations: { limit: 3, enable_customer_admin: true }, limit_usage: 10 },
      metadata: { tier: 'pro' },
    });
    expect(keys.properties).toEqual({
      prefix: 'ACME',
      expires: null,
      activations: { limit: 3, enable_customer_admin: true },
      limit_usage: 10,
    });
    const got = await api('GET', `/v1/benefits/${keys.id}`);
    expect(got.body).toEqual(keys);
    const list = await api('GET', '/v1/benefits/?type=license_keys');
    expect(list.body.items.map((b: { id: string }) => b.id)).toContain(keys.id);
    expect(list.body.items.every((b: { type: string }) => b.type === 'license_keys')).toBe(true);
    const found = await api('GET', '/v1/benefits/?query=priority');
    expect(found.body.items.map((b: { id: string }) => b.id)).toEqual([note.id]);

    const updated = await api('PATCH', `/v1/benefits/${note.id}`, {
      type: 'custom',
      description: 'Premium support',
      metadata: { level: 2 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ description: 'Premium support', metadata: { level: 2 } });
    expect(updated.body.modified_at).not.toBeNull();
    const events = await outbox(['benefit.created', 'benefit.updated']);
    // The test's clock stands still: both rows carry one instant, so compare them as a set.
    expect(
      events
        .filter(e => e.payload.id === note.id)
        .map(e => e.type)
        .sort(),
    ).toEqual(['benefit.created', 'benefit.updated']);
    expect(events.find(e => e.type === 'benefit.updated' && e.payload.id === note.id)?.payload).toEqual(updated.body);
  });

  it('answers 422 with the field for bad bodies and changes nothing', async () => {
    const before = (await api('GET', '/v1/benefits/?limit=100')).body.pagination.total_count;
    const short = await api('POST', '/v1/benefits/', { type: 'custom', description: 'ab', properties: {} });
    expect(short.status).toBe(422);
    expect(short.body.detail[0].loc).toEqual(['body', 'description']);
    const unknown = await api('POST', '/v1/benefits/', { type: 'ads', description: 'Ads', properties: {} });
    expect(unknown.status).toBe(422);
    const limit = await api('POST', '/v1/benefits/', {
      type: 'license_keys',
      description: 'Keys',
      properties: { activations: { limit: 0, enable_customer_admin: false } },
    });
    expect(limit.status).toBe(422);
    expect(JSON.stringify(limit.body.detail[0].loc)).toContain('limit');
    const files = await api('POST', '/v1/benefits/', {
      type: 'downloadables',
      description: 'Files',
      properties: { files: [] },
    });
    expect(files.status).toBe(422);
    const typeChange = await api('POST', '/v1/benefits/', { type: 'custom', description: 'Note', properties: {} });
    const wrongType = await api('PATCH', `/v1/benefits/${typeChange.body.id}`, {
      type: 'feature_flag',
      description: 'Flag',
    });
    expect(wrongType.status).toBe(422);
    expect((await api('GET', '/v1/benefits/?limit=100')).body.pagination.total_count).toBe(before + 1);
    expect((await api('GET', '/v1/benefits/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('grants follow subscriptions', () => {
  let productId: string;
  let note: { id: string };
  let flag: { id: string };
  let discord: { id: string };
  let subscriptionId: string;
  let customerId: string;

  it('attaches benefits to a product in order; an unknown benefit is 422 at its index', async () => {
    note = await benefit({ type: 'custom', description: 'Welcome note', properties: { note: 'Hello' } });
    flag = await benefit({
      type: 'feature_flag',
      description: 'Beta access',
      properties: {},
      metadata: { flag: 'beta' },
    });
    discord = await benefit({
      type: 'discord',
      description: 'Discord role',
      properties: { guild_token: 'token', role_id: '123', kick_member: false },
    });
    productId = await product({ name: 'Pro' });
    const bad = await api('POST', `/v1/products/${productId}/benefits`, {
      benefits: [note.id, '00000000-0000-4000-8000-000000000000'],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'benefits', 1]);
    const set = await api('POST', `/v1/products/${productId}/benefits`, { benefits: [flag.id, note.id, discord.id] });
    expect(set.status).toBe(200);
    expect(set.body.benefits.map((b: { id: string }) => b.id)).toEqual([flag.id, note.id, discord.id]);
    expect((await api('GET', `/v1/products/${productId}`)).body.benefits).toEqual(set.body.benefits);
  });

  it('grants on checkout; an unconfigured integration stores its error on the grant', async () => {
    const order = await sell(productId, 'buyer@example.com');
    subscriptionId = order.subscription_id;
    customerId = order.customer_id;
    const grants = await settle(
      () => api('GET', `/v1/benefit-grants/?customer_id=${customerId}&limit=100`),
      res => res.body.items?.length === 3,
    );
    const byBenefit = new Map(grants.body.items.map((g: any) => [g.benefit_id, g]));
    expect(byBenefit.get(note.id)).toMatchObject({
      is_granted: true,
      is_revoked: false,
      subscription_id: subscriptionId,
      order_id: null,
      customer_id: customerId,
      error: null,
      customer: { id: customerId, email: 'buyer@example.com' },
      benefit: { id: note.id, type: 'custom' },
    });
    expect(byBenefit.get(discord.id)).toMatchObject({
      is_granted: false,
      error: { type: 'IntegrationNotConfigured' },
    });
    expect((byBenefit.get(discord.id) as any).error.message).toContain('discord integration is not configured');

    const current = await state(customerId);
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({ id: customerId, email: 'buyer@example.com', active_meters: [] });
    expect(current.body.active_subscriptions).toHaveLength(1);
    expect(current.body.active_subscriptions[0]).toMatchObject({ id: subscriptionId, status: 'active', amount: 1500 });
    expect(current.body.granted_benefits.map((g: any) => g.benefit_id).sort()).toEqual([flag.id, note.id].sort());
    expect(current.body.granted_benefits.find((g: any) => g.benefit_id === flag.id)).toMatchObject({
      benefit_type: 'feature_flag',
      benefit_metadata: { flag: 'beta' },
    });
    const events = await outbox(['benefit_grant.created', 'customer.state_changed']);
    const created = events.filter(e => e.type === 'benefit_grant.created' && e.payload.customer_id === customerId);
    expect(created.map(e => e.payload.benefit_id).sort()).toEqual([flag.id, note.id].sort());
    expect(events.some(e => e.type === 'customer.state_changed' && e.payload.id === customerId)).toBe(true);

    const ofBenefit = await api('GET', `/v1/benefits/${note.id}/grants?is_granted=true`);
    expect(ofBenefit.body.items.map((g: any) => g.customer_id)).toEqual([customerId]);

    // Changing the benefit's properties goes through its live grants: benefit_grant.updated.
    const changed = await api('PATCH', `/v1/benefits/${note.id}`, { type: 'custom', properties: { note: 'Hi again' } });
    expect(changed.body.properties).toEqual({ note: 'Hi again' });
    const updates = await outbox(['benefit_grant.updated']);
    expect(updates.filter(e => e.payload.benefit_id === note.id).map(e => e.payload)).toEqual([
      expect.objectContaining({
        customer_id: customerId,
        previous_properties: {},
        benefit: expect.objectContaining({ properties: { note: 'Hi again' } }),
      }),
    ]);
  });

  it('keeps the benefits through a cancel at period end, and revokes them with the subscription', async () => {
    const cancel = await api('PATCH', `/v1/subscriptions/${subscriptionId}`, { cancel_at_period_end: true });
    expect(cancel.status).toBe(200);
    await stack.sandbox.environment.billing.jobs.drain();
    const kept = await state(customerId);
    expect(kept.body.active_subscriptions[0]).toMatchObject({ cancel_at_period_end: true });
    expect(kept.body.granted_benefits).toHaveLength(2);

    expect((await api('PATCH', `/v1/subscriptions/${subscriptionId}`, { cancel_at_period_end: false })).status).toBe(
      200,
    );
    expect((await api('DELETE', `/v1/subscriptions/${subscriptionId}`)).status).toBe(200);
    const revoked = await settle(
      () => state(customerId),
      res => res.body.granted_benefits?.length === 0,
    );
    expect(revoked.body.active_subscriptions).toEqual([]);
    expect(revoked.body.granted_benefits).toEqual([]);
    const grants = await api('GET', `/v1/benefit-grants/?customer_id=${customerId}&is_granted=false&limit=100`);
    expect(grants.body.items).toHaveLength(3);
    expect(
      grants.body.items
        .filter((g: any) => g.is_revoked)
        .map((g: any) => g.benefit_id)
        .sort(),
    ).toEqual([flag.id, note.id].sort());
    // The Discord grant never reached Discord: there is nothing to revoke, and no event says so.
    const events = await outbox(['benefit_grant.revoked']);
    expect(
      events
        .filter(e => e.payload.customer_id === customerId)
        .map(e => e.payload.benefit_id)
        .sort(),
    ).toEqual([flag.id, note.id].sort());
  });
});

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
    await settleJobs(stack.sandbox.environment.billing);
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
