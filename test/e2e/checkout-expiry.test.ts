import { ManualClock } from '../../kit/clock.js';
import { call, createTenant, type RunningEnvironment, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { until } from '../support/until.js';

/**
 * Checkout expiry as due work: the sandbox clock's advance expires an open checkout at its
 * `expires_at` (status `expired`, `checkout.expired` then `checkout.updated`, stamped with that
 * instant), and confirming it afterwards is 410; in production the sweep does the same on the wall
 * clock.
 */
const clock = new ManualClock(new Date('2026-05-01T08:00:00Z'));
let stack: TestStack;
let sandboxOwner: Tenant;
let productionOwner: Tenant;

const api = (env: RunningEnvironment, owner: Tenant, method: string, path: string, body?: unknown) =>
  call(env.baseUrl, method, path, { token: owner.oat, body });

async function openCheckout(env: RunningEnvironment, owner: Tenant, email: string) {
  const product = await api(env, owner, 'POST', '/v1/products/', {
    name: `Expiring ${email}`,
    recurring_interval: null,
    prices: [{ amount_type: 'fixed', price_amount: 500 }],
  });
  expect(product.status).toBe(201);
  const checkout = await api(env, owner, 'POST', '/v1/checkouts/', {
    products: [product.body.id],
    customer_email: email,
  });
  expect(checkout.status).toBe(201);
  return checkout.body as { id: string; client_secret: string; expires_at: string };
}

/** The checkout's events once `count` of them are there (or what there is after up to 60 s). */
async function eventsSettled(env: RunningEnvironment, checkoutId: string, count: number) {
  let rows: Awaited<ReturnType<typeof events>> = [];
  await until(async () => (rows = await events(env, checkoutId)).length >= count, 60_000, 100);
  return rows;
}

async function events(env: RunningEnvironment, checkoutId: string) {
  return env.environment.billing.orm.em
    .fork()
    .getConnection()
    .execute<{ type: string; created_at: Date; status: string }[]>(
      `select type, created_at, payload->>'status' as status from billing.events where payload->>'id' = ? order by created_at, id`,
      [checkoutId],
    );
}

beforeAll(async () => {
  stack = await sharedTestStack(clock);
  sandboxOwner = await createTenant(stack.sandbox);
  productionOwner = await createTenant(stack.production);
}, 120_000);

describe('checkout expiry', () => {
  it('expires an open checkout when the sandbox clock passes its expires_at, and refuses its confirm with 410', async () => {
    const env = stack.sandbox;
    const checkout = await openCheckout(env, sandboxOwner, 'expire-me@example.com');
    const advanced = await api(env, sandboxOwner, 'POST', '/v1/sandbox/clock/advance', { seconds: 23 * 3600 });
    expect(advanced.status).toBe(200);
    expect((await api(env, sandboxOwner, 'GET', `/v1/checkouts/${checkout.id}`)).body.status).toBe('open');

    expect((await api(env, sandboxOwner, 'POST', '/v1/sandbox/clock/advance', { seconds: 2 * 3600 })).status).toBe(200);
    const got = await api(env, sandboxOwner, 'GET', `/v1/checkouts/${checkout.id}`);
    expect(got.body).toMatchObject({ status: 'expired', expires_at: checkout.expires_at });
    const listed = await api(env, sandboxOwner, 'GET', `/v1/checkouts/?status=expired`);
    expect(listed.body.items.map((k: { id: string }) => k.id)).toContain(checkout.id);

    const confirm = await call(env.baseUrl, 'POST', `/v1/checkouts/client/${checkout.client_secret}/confirm`, {
      body: { confirmation_token_id: 'pm_card_visa' },
    });
    expect(confirm.status).toBe(410);
    expect(confirm.body).toEqual({ error: 'ExpiredCheckoutError', detail: 'This checkout session has expired.' });

    const rows = await events(env, checkout.id);
    expect(rows.map(r => [r.type, r.status])).toEqual([
      ['checkout.created', 'open'],
      ['checkout.expired', 'expired'],
      ['checkout.updated', 'expired'],
    ]);
    // Stamped with the instant it fell due (the clock stopped there on its way), not the advance's target.
    expect(new Date(rows[1].created_at).toISOString()).toBe(new Date(checkout.expires_at).toISOString());

    // A second advance finds nothing more to do: the events are not repeated.
    await api(env, sandboxOwner, 'POST', '/v1/sandbox/clock/advance', { seconds: 3600 });
    expect(await events(env, checkout.id)).toHaveLength(3);
  });

  it('gives a checkout created after an advance 24 hours of the organization clock', async () => {
    const env = stack.sandbox;
    const now = (await api(env, sandboxOwner, 'GET', '/v1/sandbox/clock')).body.now as string;
    const checkout = await openCheckout(env, sandboxOwner, 'later@example.com');
    const expected = new Date(now).getTime() + 24 * 3600 * 1000;
    expect(Math.abs(new Date(checkout.expires_at).getTime() - expected)).toBeLessThan(60_000);
    expect((await api(env, sandboxOwner, 'GET', `/v1/checkouts/${checkout.id}`)).body.status).toBe('open');
  });

  it('is swept in production on the wall clock', async () => {
    const env = stack.production;
    const checkout = await openCheckout(env, productionOwner, 'prod-expire@example.com');
    // Not yet due: a sweep leaves it open (what it does for other files' organizations on the shared stack
    // is theirs).
    await env.environment.billing.dueWork.sweep();
    expect((await api(env, productionOwner, 'GET', `/v1/checkouts/${checkout.id}`)).body.status).toBe('open');
    clock.advance(24 * 3600 * 1000 + 1000);
    try {
      expect(await env.environment.billing.dueWork.sweep()).toBeGreaterThanOrEqual(1);
      expect((await api(env, productionOwner, 'GET', `/v1/checkouts/${checkout.id}`)).body.status).toBe('expired');
      // The service's own sweep (the background-work spine) may be expiring the same checkout at this
      // moment: the test's sweep then skips the locked row, and the events commit with the other one.
      expect((await eventsSettled(env, checkout.id, 3)).map(r => r.type)).toEqual([
        'checkout.created',
        'checkout.expired',
        'checkout.updated',
      ]);
      // Two sweeps at once expire it once.
      await Promise.all([env.environment.billing.dueWork.sweep(), env.environment.billing.dueWork.sweep()]);
      expect(await events(env, checkout.id)).toHaveLength(3);
    } finally {
      clock.advance(-(24 * 3600 * 1000 + 1000));
    }
  });
});
