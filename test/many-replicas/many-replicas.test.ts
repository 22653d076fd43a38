import { randomUUID } from 'node:crypto';
import { seedDueRenewals } from '../../bench/seed-renewals.js';
import { logsOf } from '../distributed/support.js';
import { eventually } from '../limits/support.js';
import { query } from '../support/embedded-server.js';
import { untilRefused } from '../support/revocation.js';
import { call, everyPage } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { createsUnderLoad } from './load.js';
import { ROLES, useReplicatedTopology } from './replicated-topology.js';

/**
 * Many replicas, one truth (docs/kubernetes.md#many-replicas): the distributed topology with two
 * replicas of every part, each pair behind a round-robin proxy (test/many-replicas/replicated-topology.ts),
 * shows what a user would see of it: a webhook delivered once with both workers running; due renewals
 * and checkout expiry run once with both billing replicas scheduling; a token revoked through one
 * adapter refused by the other; one rate-limit counter for both adapters; an idempotency key held
 * across adapters; and, last (it kills half the stack), one replica of every pair killed with SIGKILL
 * mid-load without losing or doubling an acknowledged create.
 */
jest.setTimeout(300_000);

const LIMIT = 6;
const RENEWALS = 30;
const stack = useReplicatedTopology(LIMIT);
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  await receiver?.close();
});

/** Through the adapters' Service (either adapter), as the seller unless another token is given. */
const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>, token?: string) =>
  call(stack.api, method, path, { token: token ?? stack.seller.oat, body, headers, timeoutMs: 60_000 });
/** To one adapter replica directly, when which one answers matters. */
const onAdapter = (replica: number, method: string, path: string, token: string, body?: unknown) =>
  call(stack.replicas.rest[replica].url, method, path, { token, body, timeoutMs: 60_000 });

const plan = (name: string, amount = 900) => ({
  name,
  recurring_interval: 'month',
  prices: [{ amount_type: 'fixed', price_amount: amount, price_currency: 'usd' }],
});

async function endpoint(path: string, events: string[]): Promise<void> {
  const created = await api('POST', '/v1/webhooks/endpoints', { url: receiver.url(path), format: 'raw', events });
  expect(created.status).toBe(201);
}

const dataOf = (path: string, type: string) =>
  receiver
    .on(path)
    .map(r => ({ id: r.headers['webhook-id'] as string, event: JSON.parse(r.body) }))
    .filter(r => r.event.type === type);

it('serves through both replicas of every pair', async () => {
  for (let i = 0; i < 4; i++) expect((await api('GET', '/v1/products/?limit=1')).status).toBe(200);
  // Every Service has sent requests to both of its replicas (the subgraphs' through the gateways).
  for (const role of ROLES) {
    const answered = [...stack.proxies[role].answered.values()];
    expect({ role, both: answered.length === 2 && answered.every(n => n > 0) }).toEqual({ role, both: true });
  }
});

/** A sale through the Service: a checkout of `product` confirmed with the test card. */
async function sell(product: string, email: string): Promise<void> {
  const checkout = await api('POST', '/v1/checkouts/', { products: [product], customer_email: email });
  expect(checkout.status).toBe(201);
  const confirmed = await api('POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    confirmation_token_id: 'pm_card_visa',
  });
  expect(confirmed.status).toBe(200);
}

/** Once `count` order.paid webhooks have reached /sales: each delivered once, for `count` orders. */
async function salesDeliveredOnce(count: number): Promise<void> {
  // The endpoint's messages go out in order: once the last has arrived every earlier one has, and a
  // second delivery of any would be among them.
  await receiver.until(() => receiver.on('/sales').length >= count, `${count} order.paid webhooks`, 60_000);
  const paid = dataOf('/sales', 'order.paid');
  expect(paid).toHaveLength(count);
  expect(new Set(paid.map(p => p.id)).size).toBe(count);
  expect(new Set(paid.map(p => p.event.data.id)).size).toBe(count);
}

let plans: string;

it('delivers each webhook once with both workers running', async () => {
  await endpoint('/sales', ['order.paid']);
  const product = await api('POST', '/v1/products/', plan('Plan'));
  expect(product.status).toBe(201);
  plans = product.body.id;
  // Six sales through the Service: the creates and confirms land on both adapters, gateways and billings.
  for (let i = 0; i < 6; i++) await sell(plans, `b${i}@example.com`);
  await salesDeliveredOnce(6);
  for (const worker of stack.replicas.worker)
    expect({ worker: worker.name, exit: worker.child.exitCode }).toEqual({ worker: worker.name, exit: null });
});

it('renews each due subscription once with both billing replicas scheduling', async () => {
  const organizationId = stack.renewing.organizationId;
  await seedDueRenewals({
    databaseUrl: stack.databaseUrl,
    organizationId,
    count: RENEWALS,
    periodEnd: new Date(Date.now() - 60_000),
  });
  const cycles = async () =>
    (await everyPage(stack.api, '/v1/orders/', stack.renewing.oat)).filter(
      o => o.billing_reason === 'subscription_cycle',
    );
  let orders = await cycles();
  for (const deadline = Date.now() + 120_000; orders.length < RENEWALS && Date.now() < deadline; ) {
    await new Promise(r => setTimeout(r, 500));
    orders = await cycles();
  }
  expect(orders.length).toBe(RENEWALS);
  expect(orders.every(o => o.status === 'paid')).toBe(true);
  expect(new Set(orders.map(o => o.subscription_id)).size).toBe(RENEWALS);
  // One payment and one processor charge per renewal, not one per scheduler.
  const [counts] = await query<Record<string, string>>(
    stack.databaseUrl,
    `select (select count(*) from billing.payments where organization_id = $1) as payments,
            (select count(*) from billing.test_processor_charges c where c.metadata->>'subscription_id' in
               (select id::text from billing.subscriptions where organization_id = $1)) as charges`,
    [organizationId],
  );
  expect({ payments: Number(counts.payments), charges: Number(counts.charges) }).toEqual({
    payments: RENEWALS,
    charges: RENEWALS,
  });
});

it('expires each checkout once when both billing replicas run the due work', async () => {
  await endpoint('/expiry', ['checkout.expired']);
  const product = await api('POST', '/v1/products/', plan('Expiring'));
  const open = async () => (await api('POST', '/v1/checkouts/', { products: [product.body.id] })).body.id as string;
  const status = async (id: string) => (await api('GET', `/v1/checkouts/${id}`)).body.status as string;
  // By the sandbox clock: both adapters move the seller's clock 25 h at once, past the checkouts' 24 h.
  // The advances reach the billing replicas side by side; advances of one organization run one after the
  // other (docs/recurring.md), so one runs the expiry and the other finds nothing left.
  const advanced = [await open(), await open(), await open(), await open()];
  const day = { seconds: 25 * 3600 };
  const advances = await Promise.all(
    [0, 1].map(i => onAdapter(i, 'POST', '/v1/sandbox/clock/advance', stack.seller.oat, day)),
  );
  expect(advances.map(a => a.status)).toEqual([200, 200]);
  for (const id of advanced) expect(await status(id)).toBe('expired');
  // By the wall clock: four more whose expiry has come (written as if their 24 h had run out). The write
  // notifies both billing replicas, whose due-work sweeps race for the same checkouts.
  const swept = [await open(), await open(), await open(), await open()];
  await query(
    stack.databaseUrl,
    `update billing.checkouts set expires_at = now() - interval '1 second' where id = any($1)`,
    [swept],
  );
  await eventually(async () => (await Promise.all(swept.map(status))).every(s => s === 'expired'), 600, 100);
  // A later checkout expired by a later advance: once its webhook has arrived (in order), a second
  // `checkout.expired` of any earlier one would have too.
  const marker = await open();
  expect((await api('POST', '/v1/sandbox/clock/advance', day)).status).toBe(200);
  await receiver.until(
    () => dataOf('/expiry', 'checkout.expired').some(e => e.event.data.id === marker),
    'the marker checkout.expired',
    60_000,
  );
  const expired = dataOf('/expiry', 'checkout.expired');
  expect(expired.map(e => e.event.data.id).sort()).toEqual([...advanced, ...swept, marker].sort());
  expect(new Set(expired.map(e => e.id)).size).toBe(expired.length);
});

it('refuses a token revoked through one adapter on the other, which had cached it', async () => {
  const [A, B] = [0, 1];
  const created = await onAdapter(A, 'POST', '/v1/organization-access-tokens/', stack.seller.pat, {
    organization_id: stack.seller.organizationId,
    comment: 'replica',
    scopes: ['organizations:read'],
  });
  expect(created.status).toBe(201);
  const token = created.body.token as string;
  // B resolves it and keeps the principal in its cache (kit/principal-cache.ts).
  for (let i = 0; i < 2; i++) expect((await onAdapter(B, 'GET', '/v1/organizations/', token)).status).toBe(200);
  const revoked = await onAdapter(
    A,
    'DELETE',
    `/v1/organization-access-tokens/${created.body.organization_access_token.id}`,
    stack.seller.pat,
  );
  expect(revoked.status).toBe(204);
  const revokedAt = Date.now();
  // B hears it by LISTEN, polled for at most 2 s (test/support/revocation.ts).
  const { refusal, statuses, ms } = await untilRefused(
    () => onAdapter(B, 'GET', '/v1/organizations/', token),
    revokedAt,
  );
  expect({ status: refusal.status, error: refusal.body.error }).toEqual({ status: 401, error: 'invalid_token' });
  console.log(`many-replicas: B answered ${statuses.join(', ')} within ${ms} ms of the revocation`);
  for (const replica of [A, B, A, B])
    expect((await onAdapter(replica, 'GET', '/v1/organizations/', token)).status).toBe(401);
  for (const replica of [A, B])
    expect((await onAdapter(replica, 'GET', '/v1/organizations/', stack.seller.oat)).status).toBe(200);
});

it("counts a caller's rate limit once for both adapters", async () => {
  const statuses: number[] = [];
  for (let i = 0; i < LIMIT + 2; i++) {
    const res = await onAdapter(i % 2, 'GET', '/v1/organizations/', stack.limited.oat);
    statuses.push(res.status);
    if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }
  // The (limit+1)-th lands on A and the next on B: each alone would still be at half the limit.
  expect(statuses).toEqual([...Array(LIMIT).fill(200), 429, 429]);
});

it('holds an idempotency key across adapters, one after the other and at once', async () => {
  const key = `replicas-${randomUUID()}`;
  const body = plan(`Keyed ${key}`, 1500);
  const first = await call(stack.replicas.rest[0].url, 'POST', '/v1/products/', {
    token: stack.seller.oat,
    body,
    headers: { 'idempotency-key': key },
  });
  const second = await call(stack.replicas.rest[1].url, 'POST', '/v1/products/', {
    token: stack.seller.oat,
    body,
    headers: { 'idempotency-key': key },
  });
  expect([first.status, second.status]).toEqual([201, 201]);
  expect(second.body.id).toBe(first.body.id);
  expect(second.headers.get('idempotent-replayed')).toBe('true');

  // Eight at once, four on each adapter, with a fresh key: one write; the others are replays of it or
  // 409 IdempotencyKeyInUse while it runs.
  const racing = `racing-${randomUUID()}`;
  const raced = plan(`Raced ${racing}`, 1500);
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      call(stack.replicas.rest[i % 2].url, 'POST', '/v1/products/', {
        token: stack.seller.oat,
        body: raced,
        headers: { 'idempotency-key': racing },
      }),
    ),
  );
  const created = answers.filter(a => a.status === 201);
  expect(created.length).toBeGreaterThanOrEqual(1);
  expect(new Set(created.map(a => a.body.id)).size).toBe(1);
  expect(answers.filter(a => a.status !== 201).map(a => [a.status, a.body.error])).toEqual(
    answers.filter(a => a.status !== 201).map(() => [409, 'IdempotencyKeyInUse']),
  );
  const products = await everyPage(stack.api, '/v1/products/', stack.seller.oat);
  expect(
    products
      .filter(p => p.name === body.name || p.name === raced.name)
      .map(p => p.name)
      .sort(),
  ).toEqual([body.name, raced.name].sort());
});

it('loses no acknowledged create when one replica of every pair is killed mid-load', async () => {
  const outcome = await createsUnderLoad(stack, api);
  const { creates } = outcome;
  console.log(
    `many-replicas: ${creates.length} creates, ${creates.filter(c => c.outcome === 201).length} acknowledged; ` +
      `in flight at the kill and not acknowledged: ${outcome.failedInFlight.map(c => c.outcome).join(', ') || 'none'}`,
  );
  try {
    // Nothing but 201 once the killed replicas were gone; before, only requests in flight when they died
    // failed (no answer, or a 5xx when a replica behind the adapter died with it).
    expect(outcome.failedAfterKill).toEqual([]);
    expect(outcome.failedInFlight.every(c => c.outcome === 'error' || c.outcome >= 500)).toBe(true);
    expect(outcome.failedInFlight.length).toBeLessThanOrEqual(outcome.clients * 2);
    expect(outcome.doubled).toEqual([]);
    expect(outcome.missing).toEqual([]);
    expect(outcome.unasked).toEqual([]);
    // The survivors carry on: a sale after the kill reaches the merchant once, through the surviving
    // billing, webhooks subgraph and webhook worker.
    await sell(plans, 'after-the-kill@example.com');
    await salesDeliveredOnce(7);
  } catch (error) {
    for (const role of [...ROLES, 'worker' as const])
      for (const part of stack.replicas[role]) console.log(logsOf(part));
    throw error;
  }
});
