import { ManualClock } from '../../kit/clock.js';
import { benefitHelpers } from '../support/benefits.js';
import { ok, polarClient } from '../support/sdk.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Polar's pause (2026) through `PATCH /v1/subscriptions/{id}` and the sandbox clock: `SubscriptionPause`
 * keeps the subscription active to the end of its period, the engine pauses it there (no order, benefits
 * revoked), and `resumes_at` or `SubscriptionResume` brings it back into a new period billed at once
 * (benefits granted again). The pinned SDK (0.48.1) has no pause body, so the PATCH is raw HTTP; the
 * SDK reads the subscription it produces.
 */
jest.setTimeout(120_000);
const wall = new ManualClock(new Date('2028-03-01T10:00:00.000Z'));
let stack: TestStack;
let base: string;
let owner: Tenant;

beforeAll(async () => {
  stack = await sharedTestStack(wall);
  base = stack.sandbox.baseUrl;
}, 120_000);

const { api, settle, benefit, product, sell, state } = benefitHelpers(() => ({ stack, owner, base }));
const patch = (id: string, body: unknown) => api('PATCH', `/v1/subscriptions/${id}`, body);
const get = async (id: string) => (await api('GET', `/v1/subscriptions/${id}`)).body;
const advance = async (to: string) => {
  const res = await api('POST', '/v1/sandbox/clock/advance', { to });
  expect(res.status).toBe(200);
};
const orders = async (id: string) =>
  (await api('GET', `/v1/orders/?subscription_id=${id}&limit=100&sorting=created_at`)).body.items as Record<
    string,
    any
  >[];
/** The subscription's outbox rows, oldest first. */
const events = async (id: string) => {
  const rows = await stack.sandbox.environment.billing.orm.em
    .fork()
    .getConnection()
    .execute<{ type: string; created_at: Date }[]>(
      `select type, created_at from billing.events where organization_id = ? and type like 'subscription.%' and payload->>'id' = ? order by created_at, id`,
      [owner.organizationId, id],
    );
  return rows.map(r => [r.type, new Date(r.created_at).toISOString()]);
};
const ms = (iso: string, n: number) => new Date(new Date(iso).getTime() + n).toISOString();
const day = (iso: string, days: number) => ms(iso, days * 86_400_000);

/** A merchant of its own with a monthly plan carrying one benefit, and one subscriber whose grant is in. */
async function subscriber() {
  owner = await createTenant(stack.sandbox);
  const perk = await benefit({ type: 'custom', description: 'Paused perk', properties: {} });
  const plan = await product({ name: 'Pausable' });
  await api('POST', `/v1/products/${plan}/benefits`, { benefits: [perk.id] });
  const order = await sell(plan, 'pauser@example.com');
  const grants = () => state(order.customer_id);
  await settle(grants, res => res.body.granted_benefits?.length === 1);
  return { id: order.subscription_id as string, customerId: order.customer_id as string, grants };
}

describe('pause at period end, then resume at `resumes_at`', () => {
  it('stays active to the period end, pauses with no order and no benefits, resumes billed with them back', async () => {
    const s = await subscriber();
    const before = await get(s.id);
    const end = before.current_period_end as string;
    const resumesAt = day(end, 20);

    const updatedBefore = (await events(s.id)).filter(([t]) => t === 'subscription.updated').length;
    const scheduled = await patch(s.id, { pause_at_period_end: true, resumes_at: resumesAt });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body).toMatchObject({
      status: 'active',
      pause_at_period_end: true,
      paused_at: null,
      resumes_at: resumesAt,
      current_period_end: end,
    });
    // The request is a `subscription.updated`; `.paused` waits for the pause to take effect.
    expect((await events(s.id)).filter(([t]) => t === 'subscription.updated')).toHaveLength(updatedBefore + 1);
    expect((await events(s.id)).map(([t]) => t)).not.toContain('subscription.paused');

    // The day before the period ends: still active, still entitled.
    await advance(day(end, -1));
    expect(await get(s.id)).toMatchObject({ status: 'active', pause_at_period_end: true });
    expect((await s.grants()).body.granted_benefits).toHaveLength(1);

    // Past the period end: paused at that instant, no order, the benefit revoked within the advance.
    await advance(day(end, 10));
    expect(await get(s.id)).toMatchObject({
      status: 'paused',
      paused_at: end,
      pause_at_period_end: false,
      resumes_at: resumesAt,
    });
    expect((await orders(s.id)).map(o => o.billing_reason)).toEqual(['subscription_create']);
    expect((await s.grants()).body.granted_benefits).toEqual([]);
    // The official SDK reads a paused subscription (its status enum is open: 0.48.1 predates `paused`).
    const sdk = polarClient(stack.sandbox, owner.oat);
    expect((await ok(sdk.subscriptions.get({ id: s.id }))).status).toBe('paused');
    const paused = (await events(s.id)).filter(([t]) => t === 'subscription.paused');
    expect(paused).toEqual([['subscription.paused', ms(end, 1)]]);

    // Nothing is billed while paused, however long the clock runs before `resumes_at`.
    await advance(day(end, 19));
    expect((await orders(s.id)).map(o => o.billing_reason)).toEqual(['subscription_create']);

    // `resumes_at`: active, a new period from that instant, its `subscription_cycle` order charged.
    await advance(day(end, 21));
    const resumed = await get(s.id);
    expect(resumed).toMatchObject({
      status: 'active',
      paused_at: null,
      resumes_at: null,
      current_period_start: resumesAt,
    });
    const list = await orders(s.id);
    expect(list.map(o => [o.billing_reason, o.status, o.total_amount])).toEqual([
      ['subscription_create', 'paid', 1500],
      ['subscription_cycle', 'paid', 1500],
    ]);
    expect(list[1].created_at >= resumesAt).toBe(true);
    const types = (await events(s.id)).map(([t]) => t);
    expect(types.slice(types.indexOf('subscription.paused') - 1)).toEqual(
      expect.arrayContaining(['subscription.updated', 'subscription.paused', 'subscription.resumed']),
    );
    expect(types.filter(t => t === 'subscription.resumed')).toHaveLength(1);
    expect((await s.grants()).body.granted_benefits).toHaveLength(1);

    // The official SDK reads the resumed subscription.
    const read = await ok(sdk.subscriptions.get({ id: s.id }));
    expect(read).toMatchObject({ id: s.id, status: 'active' });
    expect(read.currentPeriodStart.toISOString()).toBe(resumesAt);
  });
});

describe('resume now (`{"resume": true}`)', () => {
  it('a pause with no `resumes_at` stays paused until resumed: active from now, billed, benefits back', async () => {
    const s = await subscriber();
    const end = (await get(s.id)).current_period_end as string;
    expect((await patch(s.id, { pause_at_period_end: true })).body).toMatchObject({
      pause_at_period_end: true,
      resumes_at: null,
    });
    await advance(day(end, 40));
    expect(await get(s.id)).toMatchObject({ status: 'paused', resumes_at: null });
    expect((await orders(s.id)).map(o => o.billing_reason)).toEqual(['subscription_create']);
    expect((await s.grants()).body.granted_benefits).toEqual([]);

    const now = day(end, 40);
    const res = await patch(s.id, { resume: true });
    expect([res.status, res.body.error ?? null, res.body.detail ?? null]).toEqual([200, null, null]);
    expect(res.body).toMatchObject({
      status: 'active',
      paused_at: null,
      resumes_at: null,
      current_period_start: now,
      current_period_end: expect.any(String),
    });
    expect(new Date(res.body.current_period_end).getTime()).toBeGreaterThan(new Date(now).getTime());
    // The period's order is written with the resume and charged by the engine's next pass.
    expect((await orders(s.id)).map(o => [o.billing_reason, o.status])).toEqual([
      ['subscription_create', 'paid'],
      ['subscription_cycle', 'pending'],
    ]);
    const tail = (await events(s.id)).slice(-2);
    expect(tail).toEqual([
      ['subscription.updated', now],
      ['subscription.resumed', ms(now, 1)],
    ]);
    await advance(ms(now, 60_000));
    expect((await orders(s.id)).map(o => [o.billing_reason, o.status, o.total_amount])).toEqual([
      ['subscription_create', 'paid', 1500],
      ['subscription_cycle', 'paid', 1500],
    ]);
    await settle(s.grants, r => r.body.granted_benefits?.length === 1);
    expect((await s.grants()).body.granted_benefits).toHaveLength(1);

    // Not paused any more: Polar's 409.
    const again = await patch(s.id, { resume: true });
    expect([again.status, again.body]).toEqual([
      409,
      { error: 'NotPausedSubscription', detail: 'This subscription is not paused.' },
    ]);
  });
});

describe("invalid pauses answer Polar's errors and change nothing", () => {
  it('409 for the wrong state, 422 for a bad body, 403 once canceled', async () => {
    const s = await subscriber();
    const before = await get(s.id);
    const end = before.current_period_end as string;
    const unchanged = async () => {
      const now = await get(s.id);
      expect(now.modified_at).toBe(before.modified_at);
      expect(now.pause_at_period_end).toBe(false);
    };
    const expectError = async (body: unknown, status: number, expected: unknown) => {
      const res = await patch(s.id, body);
      expect([res.status, res.body]).toEqual([status, expected]);
    };

    await expectError({ resume: true }, 409, {
      error: 'NotPausedSubscription',
      detail: 'This subscription is not paused.',
    });
    await expectError({ pause_at_period_end: false }, 409, {
      error: 'NoScheduledPause',
      detail: 'This subscription is not scheduled to be paused.',
    });
    const notAfterEnd = await patch(s.id, { pause_at_period_end: true, resumes_at: end });
    expect(notAfterEnd.status).toBe(422);
    expect(notAfterEnd.body.detail).toEqual([
      expect.objectContaining({
        type: 'value_error',
        loc: ['body', 'resumes_at'],
        msg: 'resumes_at must be after the current period end.',
      }),
    ]);
    const past = await patch(s.id, { pause_at_period_end: true, resumes_at: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(422);
    expect(past.body.detail).toEqual([
      expect.objectContaining({ type: 'datetime_future', loc: ['body', 'resumes_at'] }),
    ]);
    const mixed = await patch(s.id, { pause_at_period_end: true, seats: 2 });
    expect(mixed.status).toBe(422);
    expect(mixed.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'seats'] })]);
    const notTrue = await patch(s.id, { resume: false });
    expect(notTrue.status).toBe(422);
    expect(notTrue.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'resume'] })]);
    // The preview runs the PATCH's checks and changes nothing.
    const preview = await api('POST', `/v1/subscriptions/${s.id}/update-preview`, { resume: true });
    expect([preview.status, preview.body.error]).toEqual([409, 'NotPausedSubscription']);
    expect((await api('POST', `/v1/subscriptions/${s.id}/update-preview`, { pause_at_period_end: true })).status).toBe(
      200,
    );
    await unchanged();

    // Scheduled twice: 409; then dropped (`false`), which clears `resumes_at` too.
    expect((await patch(s.id, { pause_at_period_end: true, resumes_at: day(end, 5) })).status).toBe(200);
    await expectError({ pause_at_period_end: true }, 409, {
      error: 'CannotPauseSubscription',
      detail: 'This subscription cannot be paused.',
    });
    const dropped = await patch(s.id, { pause_at_period_end: false });
    expect([dropped.status, dropped.body.pause_at_period_end, dropped.body.resumes_at]).toEqual([200, false, null]);

    // Set to cancel at period end, or canceled: the interface's rule 1 (403) comes first.
    expect((await patch(s.id, { cancel_at_period_end: true })).status).toBe(200);
    const canceled = {
      error: 'AlreadyCanceledSubscription',
      detail: 'This subscription is already canceled or will be at the end of the period.',
    };
    await expectError({ pause_at_period_end: true }, 403, canceled);
    await expectError({ resume: true }, 403, canceled);
    // The period ends without a pause: no `subscription.paused` was ever sent.
    await advance(day(end, 1));
    expect((await get(s.id)).status).toBe('canceled');
    expect((await events(s.id)).map(([t]) => t)).not.toContain('subscription.paused');
  });

  it('a trialing subscription cannot be paused (409); an unknown one is 404', async () => {
    owner = await createTenant(stack.sandbox);
    const plan = await product({ name: 'Trial plan', trial_interval: 'day', trial_interval_count: 7 });
    const order = await sell(plan, 'trial@example.com');
    const id = order.subscription_id as string;
    expect((await get(id)).status).toBe('trialing');
    const res = await patch(id, { pause_at_period_end: true });
    expect([res.status, res.body]).toEqual([
      409,
      { error: 'CannotPauseSubscription', detail: 'This subscription cannot be paused.' },
    ]);
    // Unknown subscription: 404 before anything else.
    const missing = await patch('00000000-0000-4000-8000-000000000000', { resume: true });
    expect(missing.status).toBe(404);
  });
});

describe("the customer portal's pause (`customer_portal_settings.subscription.pause`)", () => {
  it('403 PauseResumeNotAllowed until the organization allows it, then pause, drop, pause and resume', async () => {
    const s = await subscriber();
    const session = await api('POST', '/v1/customer-sessions/', { customer_id: s.customerId });
    expect(session.status).toBe(201);
    const portal = (body: unknown) =>
      call(base, 'PATCH', `/v1/customer-portal/subscriptions/${s.id}`, { token: session.body.token, body });
    const notAllowed = { error: 'PauseResumeNotAllowed', detail: 'Pausing or resuming a subscription is not allowed.' };
    for (const body of [{ pause_at_period_end: true }, { resume: true }]) {
      const res = await portal(body);
      expect([res.status, res.body]).toEqual([403, notAllowed]);
    }
    expect(await get(s.id)).toMatchObject({ pause_at_period_end: false, status: 'active' });

    const settings = await call(base, 'PATCH', `/v1/organizations/${owner.organizationId}`, {
      token: owner.pat,
      body: {
        customer_portal_settings: {
          usage: { show: true },
          subscription: { update_seats: true, update_plan: true, pause: true },
          customer: { allow_email_change: true },
        },
      },
    });
    expect(settings.status).toBe(200);
    const end = (await get(s.id)).current_period_end as string;
    const scheduled = await portal({ pause_at_period_end: true, resumes_at: day(end, 3) });
    expect([scheduled.status, scheduled.body.pause_at_period_end, scheduled.body.resumes_at]).toEqual([
      200,
      true,
      day(end, 3),
    ]);
    const dropped = await portal({ pause_at_period_end: false });
    expect([dropped.status, dropped.body.pause_at_period_end, dropped.body.resumes_at]).toEqual([200, false, null]);
    const mixed = await portal({ pause_at_period_end: true, product_id: s.id });
    expect(mixed.status).toBe(422);

    expect((await portal({ pause_at_period_end: true })).status).toBe(200);
    await advance(day(end, 2));
    expect(await get(s.id)).toMatchObject({ status: 'paused', paused_at: end });
    // Polar's `_require_payment_method`: without a saved card the portal does not resume a paid plan.
    const methods = `/v1/customer-portal/customers/me/payment-methods`;
    const token = session.body.token;
    for (const m of (await call(base, 'GET', methods, { token })).body.items)
      expect((await call(base, 'DELETE', `${methods}/${m.id}`, { token })).status).toBe(204);
    const noCard = await portal({ resume: true });
    expect([noCard.status, noCard.body]).toEqual([
      402,
      { error: 'PaymentFailed', detail: 'Payment failed with reason: missing_payment_method.' },
    ]);
    expect(await get(s.id)).toMatchObject({ status: 'paused' });
    const added = await call(base, 'POST', methods, {
      token,
      body: { confirmation_token_id: 'pm_card_visa', set_default: true, return_url: 'https://shop.example/back' },
    });
    expect(added.status).toBe(201);
    const resumed = await portal({ resume: true });
    expect([resumed.status, resumed.body.status, resumed.body.current_period_start]).toEqual([
      200,
      'active',
      day(end, 2),
    ]);
    const again = await portal({ resume: true });
    expect([again.status, again.body.error]).toEqual([409, 'NotPausedSubscription']);
  });
});
