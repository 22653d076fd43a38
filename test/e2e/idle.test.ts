import pg from 'pg';
import { systemClock } from '../../kit/clock.js';
import { testServerUrl } from '../support/database.js';
import {
  call,
  createTenant,
  type RunningEnvironment,
  startTestStack,
  type Tenant,
  type TestStack,
} from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Background work costs nothing while nothing is due (docs/background-work.md): both
 * environments as `npm start` builds them (renewal scheduler on), with work in their tables that falls
 * due only later (an open checkout, a subscription, an e-mail's redaction), run no statement at all
 * while idle. And the same loops still do their work when it is written or falls due: an event
 * committed while idle is delivered, a failed delivery is retried at its backoff time, a subscription is
 * renewed at the end of its period, a checkout expires at its time.
 *
 * What the service runs is read from its connections (pg_stat_activity: a statement changes a
 * connection's `state_change`; pg_stat_database.sessions counts new connections), not from
 * pg_stat_database's transaction count, which autovacuum's visits (two transactions per database and
 * minute when there is nothing to do) add to at moments of their own; that count is in the failure
 * message.
 */
let stack: TestStack;
let sandbox: RunningEnvironment;
let tenant: Tenant;
let receiver: WebhookReceiver;
let monitor: pg.Client;
let databases: string[];

const api = (method: string, path: string, body?: unknown) =>
  call(sandbox.baseUrl, method, path, { token: tenant.oat, body });
/** One statement through the sandbox's billing pool (never inside an idle window). */
const sql = <T>(text: string, params: unknown[] = []) =>
  sandbox.environment.billing.orm.em.fork().getConnection().execute<T[]>(text, params);

beforeAll(async () => {
  // Retries of a failed delivery after 1-2 s, then 2-4 s: slow enough to see that nothing runs before.
  stack = await startTestStack('idle', systemClock, {
    RENEWAL_INTERVAL_MS: '10000',
    WEBHOOK_RETRY_BASE_MS: '1000',
    WEBHOOK_RETRY_MAX_MS: '4000',
  });
  sandbox = stack.sandbox;
  tenant = await createTenant(sandbox);
  // The first attempt of each event to /flaky fails, the next succeeds.
  receiver = await new WebhookReceiver(path => {
    if (!path.startsWith('/flaky')) return 200;
    const seen = receiver.on(path).length;
    return seen === 1 ? 500 : 200;
  }).start();
  monitor = new pg.Client({ connectionString: testServerUrl(), application_name: 'idle-test-monitor' });
  await monitor.connect();
  databases = [];
  for (const env of [stack.production, sandbox]) {
    const [row] = await env.environment.billing.orm.em
      .fork()
      .getConnection()
      .execute<{ name: string }[]>('select current_database() as name');
    databases.push(row.name);
  }
}, 120_000);
afterAll(async () => {
  await monitor?.end();
  await stack?.close();
  await receiver?.close();
});

/** Every client connection to the environments' databases, by pid: when it started and last ran a statement. */
async function connections(): Promise<Map<number, string>> {
  const { rows } = await monitor.query<{ pid: number; activity: string }>(
    `select pid, application_name || ' ' || backend_start::text || ' ' || coalesce(state_change::text, '') as activity
       from pg_stat_activity where datname = any($1) and backend_type = 'client backend'`,
    [databases],
  );
  return new Map(rows.map(r => [r.pid, r.activity]));
}

/** Transactions and sessions per database (pg_stat_database, which autovacuum's visits add to). */
async function databaseStatistics(): Promise<Record<string, { transactions: number; sessions: number }>> {
  const { rows } = await monitor.query<{ datname: string; transactions: string; sessions: string }>(
    `select datname, xact_commit + xact_rollback as transactions, sessions from pg_stat_database where datname = any($1)`,
    [databases],
  );
  return Object.fromEntries(
    rows.map(r => [r.datname, { transactions: Number(r.transactions), sessions: Number(r.sessions) }]),
  );
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

describe('an idle service', () => {
  it('runs no statement in either database while nothing is due', async () => {
    // Work that falls due only later: a subscription (a month), an open checkout (an hour), the
    // subscription's e-mails' redaction, a delivered webhook.
    const endpoint = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/settle'),
      format: 'raw',
      events: ['customer.created', 'subscription.created'],
    });
    expect(endpoint.status).toBe(201);
    const customer = await api('POST', '/v1/customers/', { email: 'idle@example.com' });
    expect(customer.status).toBe(201);
    const product = await api('POST', '/v1/products/', {
      name: 'Idle monthly',
      recurring_interval: 'month',
      prices: [{ amount_type: 'free' }],
    });
    expect(product.status).toBe(201);
    const subscription = await api('POST', '/v1/subscriptions/', {
      product_id: product.body.id,
      customer_id: customer.body.id,
    });
    expect(subscription.status).toBe(201);
    expect((await api('POST', '/v1/checkouts/', { products: [product.body.id] })).status).toBe(201);
    await receiver.until(() => receiver.on('/settle').length >= 2, 'the customer and subscription webhooks');
    const undispatched = async () =>
      Number((await sql<{ n: string }>('select count(*) as n from billing.events where dispatched_at is null'))[0].n);
    for (let i = 0; i < 100 && (await undispatched()) > 0; i++) await sleep(100);
    expect(await undispatched()).toBe(0);

    // Settled: no statement for 11 s (the last attempt recorded, the passes those writes woke run), or,
    // where something keeps polling, after 40 s: the window below then sees it. 11 s, because a backend
    // that flushed its statistics less than a second ago holds the next ones back for up to 10 s
    // (PostgreSQL 15's idle statistics interval): a connection of the start-up or of the writes above
    // would otherwise count as a new session inside the window.
    const same = (a: Map<number, string>, b: Map<number, string>) =>
      a.size === b.size && [...a].every(([pid, activity]) => b.get(pid) === activity);
    let last = await connections();
    for (let quiet = 0, i = 0; quiet < 22 && i < 80; i++) {
      await sleep(500);
      const now = await connections();
      quiet = same(now, last) ? quiet + 1 : 0;
      last = now;
    }
    const before = await databaseStatistics();
    // Looked at every 2 s over 8 s: a connection that ran a statement has a new `state_change`, and
    // stays open past the window (a pool closes a connection after 10 s idle).
    let seen = await connections();
    const active: string[] = [];
    for (let i = 0; i < 4; i++) {
      await sleep(2000);
      const now = await connections();
      for (const [pid, activity] of now) if (seen.get(pid) !== activity) active.push(activity);
      seen = now;
    }
    // pg_stat_database, for the failure message: a backend reports at most once a second.
    await sleep(1200);
    const after = await databaseStatistics();
    const statistics = databases.map(
      name =>
        `${name}: ${after[name].transactions - before[name].transactions} transactions ` +
        `(autovacuum's included), ${after[name].sessions - before[name].sessions} new sessions`,
    );
    expect({ active, statistics, sessions: statistics.filter(s => !s.endsWith(' 0 new sessions')) }).toEqual({
      active: [],
      statistics,
      sessions: [],
    });
  }, 120_000);
});

describe('work written or falling due while idle', () => {
  it('delivers an event committed while idle', async () => {
    const endpoint = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/woken'),
      format: 'raw',
      events: ['customer.created'],
    });
    expect(endpoint.status).toBe(201);
    const customer = await api('POST', '/v1/customers/', { email: 'woken@example.com' });
    expect(customer.status).toBe(201);
    await receiver.until(() => receiver.on('/woken').length === 1, 'the customer.created webhook', 15_000);
    expect(JSON.parse(receiver.on('/woken')[0].body)).toMatchObject({
      type: 'customer.created',
      data: { id: customer.body.id },
    });
  });

  it('retries a failed delivery at its backoff time, not before', async () => {
    const endpoint = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/flaky'),
      format: 'raw',
      events: ['customer.created'],
    });
    expect(endpoint.status).toBe(201);
    const customer = await api('POST', '/v1/customers/', { email: 'flaky@example.com' });
    expect(customer.status).toBe(201);
    await receiver.until(() => receiver.on('/flaky').length === 2, 'the retry', 20_000);
    const [first, second] = receiver.on('/flaky');
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    // Each attempt is recorded once answered; the retry was due 1-2 s after the first was recorded.
    let attempts: { http_code: number; after_ms: number }[] = [];
    for (let i = 0; i < 50 && attempts.length < 2; i++, await sleep(100))
      attempts = await sandbox.environment.webhooks.orm.em.fork().execute(
        `select http_code, (extract(epoch from created_at - min(created_at) over ()) * 1000)::int as after_ms
             from webhooks.deliveries where endpoint_id = ? order by created_at`,
        [endpoint.body.id],
      );
    expect(attempts.map(a => a.http_code)).toEqual([500, 200]);
    expect(attempts[1].after_ms).toBeGreaterThanOrEqual(1000);
  }, 40_000);

  it('renews a subscription at the end of its period', async () => {
    const customer = await api('POST', '/v1/customers/', { email: 'renewed@example.com' });
    const product = await api('POST', '/v1/products/', {
      name: 'Renewed monthly',
      recurring_interval: 'month',
      prices: [{ amount_type: 'free' }],
    });
    const subscription = await api('POST', '/v1/subscriptions/', {
      product_id: product.body.id,
      customer_id: customer.body.id,
    });
    expect(subscription.status).toBe(201);
    // Its period ends in two seconds (as if it had started a month ago): the scheduler is told, and waits.
    const [{ end }] = await sql<{ end: string }>(
      `update billing.subscriptions set current_period_end = now() + interval '2 seconds' where id = ?
       returning current_period_end::text as "end"`,
      [subscription.body.id],
    );
    let renewed: { current_period_start: string; status: string } | undefined;
    for (let i = 0; i < 100 && !renewed; i++, await sleep(200)) {
      const res = await api('GET', `/v1/subscriptions/${subscription.body.id}`);
      if (res.body.current_period_start !== subscription.body.current_period_start) renewed = res.body;
    }
    expect(renewed).toMatchObject({ status: 'active' });
    expect(new Date(renewed!.current_period_start).getTime()).toBe(new Date(end).getTime());
    const orders = await api('GET', `/v1/orders/?customer_id=${customer.body.id}`);
    expect(orders.body.items.map((o: { billing_reason: string }) => o.billing_reason)).toContain('subscription_cycle');
  }, 40_000);

  it('expires a checkout at its time', async () => {
    const product = await api('POST', '/v1/products/', {
      name: 'Expiring once',
      recurring_interval: null,
      prices: [{ amount_type: 'fixed', price_amount: 500 }],
    });
    const checkout = await api('POST', '/v1/checkouts/', { products: [product.body.id] });
    expect(checkout.status).toBe(201);
    await sql(`update billing.checkouts set expires_at = now() + interval '1 second' where id = ?`, [checkout.body.id]);
    let status = 'open';
    for (let i = 0; i < 150 && status === 'open'; i++, await sleep(200))
      status = (await api('GET', `/v1/checkouts/${checkout.body.id}`)).body.status;
    expect(status).toBe('expired');
  }, 40_000);
});
