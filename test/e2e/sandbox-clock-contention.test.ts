import { ManualClock } from '../../kit/clock.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';

/**
 * Many advances of the sandbox clock at once do not freeze the sandbox. Each advance used to hold a
 * pooled connection while it waited for the organization's lock, and the one holding the lock needed
 * one more connection than the pool had left: every billing request of every organization hung until
 * a restart. Here thirty advances from three organizations (ten each) race a fourth organization
 * reading its products, on a pool of four connections: every request answers (200, or 409 for an
 * advance that waited too long behind another of its organization), and each organization's
 * subscription, which the advances carry across its renewal, is renewed exactly once.
 */
jest.setTimeout(180_000);
const START = new Date('2028-03-10T08:00:00.000Z');
const wall = new ManualClock(START);
/** A request that has not answered by then counts as hung (today's answers take well under a second). */
const ANSWER_WITHIN_MS = 20_000;
let stack: TestStack;
let base: string;

beforeAll(async () => {
  stack = await startTestStack('clock_contention', wall, { DATABASE_POOL_SIZE: '4' });
  base = stack.sandbox.baseUrl;
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

type Outcome = { status: number; body: any } | 'timed out';

async function answerOf(promise: Promise<{ status: number; body: any }>): Promise<Outcome> {
  try {
    const { status, body } = await promise;
    return { status, body };
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return 'timed out';
    throw error;
  }
}

/** An organization with one active monthly subscription (paid by card), its clock set just before the renewal. */
async function subscribedTenant(): Promise<{ tenant: Tenant; subscriptionId: string; periodEnd: string }> {
  const tenant = await createTenant(stack.sandbox);
  const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: tenant.oat, body });
  const product = await api('POST', '/v1/products/', {
    name: 'Monthly',
    recurring_interval: 'month',
    prices: [{ amount_type: 'fixed', price_amount: 1500 }],
  });
  expect(product.status).toBe(201);
  const checkout = await api('POST', '/v1/checkouts/', {
    products: [product.body.id],
    customer_email: `contention-${tenant.organizationId}@example.com`,
  });
  const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_visa' },
  });
  expect(confirmed.status).toBe(200);
  const [subscription] = (await api('GET', `/v1/subscriptions/?customer_id=${confirmed.body.customer_id}`)).body.items;
  expect(subscription.status).toBe('active');
  const periodEnd = subscription.current_period_end as string;
  // 30 s before the renewal: the first advance of 60 s to run carries the subscription across it.
  const justBefore = new Date(new Date(periodEnd).getTime() - 30_000).toISOString();
  expect((await api('POST', '/v1/sandbox/clock/advance', { to: justBefore })).status).toBe(200);
  return { tenant, subscriptionId: subscription.id, periodEnd };
}

it('thirty advances from three organizations at once, while a fourth reads products: every request answers, each renewal happens once', async () => {
  const subscribed = [await subscribedTenant(), await subscribedTenant(), await subscribedTenant()];
  const reader = await createTenant(stack.sandbox);
  const listed = await call(base, 'POST', '/v1/products/', {
    token: reader.oat,
    body: { name: 'Read me', prices: [{ amount_type: 'free' }] },
  });
  expect(listed.status).toBe(201);

  const advances = Array.from({ length: 30 }, (_, i) => subscribed[i % 3]).map(({ tenant }) =>
    answerOf(
      call(base, 'POST', '/v1/sandbox/clock/advance', {
        token: tenant.oat,
        body: { seconds: 60 },
        timeoutMs: ANSWER_WITHIN_MS,
      }),
    ).then(outcome => ({ organizationId: tenant.organizationId, outcome })),
  );
  let advancing = true;
  const reads: Outcome[] = [];
  const readLoop = (async () => {
    while (advancing) {
      reads.push(
        await answerOf(call(base, 'GET', '/v1/products/', { token: reader.oat, timeoutMs: ANSWER_WITHIN_MS })),
      );
    }
  })();
  const answered = await Promise.all(advances);
  advancing = false;
  await readLoop;

  expect(answered.filter(a => a.outcome === 'timed out')).toEqual([]);
  expect(reads.filter(r => r === 'timed out')).toEqual([]);
  for (const { outcome } of answered) {
    const { status, body } = outcome as { status: number; body: any };
    if (status === 409) expect(body).toEqual({ error: 'SandboxClockBusy', detail: expect.any(String) });
    else expect(status).toBe(200);
  }
  expect(reads.length).toBeGreaterThan(0);
  for (const read of reads) {
    const { status, body } = read as { status: number; body: any };
    expect([status, body.items.map((p: any) => p.name)]).toEqual([200, ['Read me']]);
  }

  for (const { tenant, subscriptionId, periodEnd } of subscribed) {
    const api = (path: string) => call(base, 'GET', path, { token: tenant.oat });
    const succeeded = answered.filter(
      a => a.organizationId === tenant.organizationId && (a.outcome as { status: number }).status === 200,
    ).length;
    expect(succeeded).toBeGreaterThan(0);
    // No advance lost or run twice: the clock moved 60 s for each one that answered 200.
    const expected = new Date(new Date(periodEnd).getTime() - 30_000 + succeeded * 60_000).toISOString();
    expect((await api('/v1/sandbox/clock')).body.now).toBe(expected);
    // Renewed once: one renewal order, for the period that starts at the old period end.
    const orders = await api(`/v1/orders/?subscription_id=${subscriptionId}&limit=100`);
    const renewals = orders.body.items.filter((o: any) => o.billing_reason === 'subscription_cycle');
    expect(renewals.map((o: any) => [o.status, o.total_amount])).toEqual([['paid', 1500]]);
    const subscription = (await api(`/v1/subscriptions/${subscriptionId}`)).body;
    expect(subscription.current_period_start).toBe(periodEnd);
    const [cycled] = await stack.sandbox.environment.billing.orm.em
      .fork()
      .execute<{ count: string }[]>(
        `select count(*) from billing.events where organization_id = ? and type = 'subscription.cycled'`,
        [tenant.organizationId],
      );
    expect(Number(cycled.count)).toBe(1);
  }
});
