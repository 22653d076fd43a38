import { ManualClock } from '../../kit/clock.js';
import { BillingEntryQueries } from '../../subgraphs/billing/usage-billing/billing-entries.queries.js';
import { billUsage } from '../../subgraphs/billing/usage-billing/usage-billing.job.js';
import { UsageEventQueries } from '../../subgraphs/billing/usage-events/usage-event.queries.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { lines, times, type UsageMerchant, usageMerchant } from '../support/usage-billing.js';

/**
 * Usage billing's credits (docs/usage-billing.md): the meter_credit benefit, customer meters in the core API and
 * the portal, and the billing job killed mid-run. Metered prices and usage lines: usage-billing.test.ts.
 */
jest.setTimeout(120_000);
const START = new Date('2028-01-31T09:30:00.000Z');
const wall = new ManualClock(START);
let stack: TestStack;
let base: string;
let other: Tenant;

beforeAll(async () => {
  stack = await sharedTestStack(wall);
  base = stack.sandbox.baseUrl;
  other = await createTenant(stack.sandbox);
}, 120_000);

describe('meter credits and customer meters', () => {
  async function creditPlan(m: UsageMerchant, units: number, rollover: boolean, cap?: number) {
    const meterId = await m.meterOf('Calls');
    const benefit = await m.req('POST', '/v1/benefits/', {
      type: 'meter_credit',
      description: 'Included calls',
      properties: { units, rollover, meter_id: meterId },
    });
    expect(benefit.status).toBe(201);
    const plan = await m.product({
      prices: [
        { amount_type: 'fixed', price_amount: 1000 },
        { amount_type: 'metered_unit', meter_id: meterId, unit_amount: '0.5', ...(cap ? { cap_amount: cap } : {}) },
      ],
    });
    expect((await m.req('POST', `/v1/products/${plan}/benefits`, { benefits: [benefit.body.id] })).status).toBe(200);
    return { meterId, plan };
  }
  const customerMeter = async (m: UsageMerchant, customerId: string, meterId: string) => {
    const res = await m.req('GET', `/v1/customer-meters/?customer_id=${customerId}&meter_id=${meterId}`);
    expect(res.status).toBe(200);
    return res.body.items[0] as Record<string, any>;
  };

  it('1,001 units at "0.5" with 100 credited bill 451; the customer meter shows consumed, credited, balance', async () => {
    const m = await usageMerchant(stack);
    const { meterId, plan } = await creditPlan(m, 100, false);
    const sub = await m.subscribe(plan);
    await m.ingest(sub.customer_id, times(1001));
    await m.advance('2028-02-01T00:00:00.000Z');
    const meter = await customerMeter(m, sub.customer_id, meterId);
    expect(meter).toMatchObject({ consumed_units: 1001, credited_units: 100, balance: -901, meter_id: meterId });
    expect(meter.customer.id).toBe(sub.customer_id);
    expect((await m.req('GET', `/v1/customer-meters/${meter.id}`)).body).toEqual(meter);
    // Credits are recorded in the usage stream as system events.
    const credited = await m.req('GET', '/v1/events/?name=meter.credited');
    expect(credited.body.items[0]).toMatchObject({ source: 'system', metadata: { meter_id: meterId, units: 100 } });
    // Another organization never sees it.
    const theirs = await call(base, 'GET', `/v1/customer-meters/${meter.id}`, { token: other.oat });
    expect(theirs.status).toBe(404);
    const theirList = await call(base, 'GET', '/v1/customer-meters/', { token: other.oat });
    expect(theirList.body.items).toEqual([]);
    // The customer's portal shows the same meter.
    const session = await m.req('POST', '/v1/customer-sessions/', { customer_id: sub.customer_id });
    const portal = await call(base, 'GET', '/v1/customer-portal/meters/', { token: session.body.token });
    expect(portal.body.items.map((i: any) => [i.id, i.balance])).toEqual([[meter.id, -901]]);
    // Customer state lists it as Polar's active meter.
    const state = await m.req('GET', `/v1/customers/${sub.customer_id}/state`);
    expect(state.body.active_meters).toEqual([
      {
        id: meter.id,
        created_at: meter.created_at,
        modified_at: meter.modified_at,
        meter_id: meterId,
        consumed_units: 1001,
        credited_units: 100,
        balance: -901,
      },
    ]);

    await m.advance('2028-02-29T09:30:00.002Z');
    const [order] = await m.cycleOrders(sub.id);
    expect(lines(order)).toEqual([
      ['Plan', 1000],
      ['Calls — (901 consumed units) × $0.005', 451],
    ]);
  });

  it('with cap_amount 300 the same usage bills 300', async () => {
    const m = await usageMerchant(stack);
    const { plan } = await creditPlan(m, 100, false, 300);
    const sub = await m.subscribe(plan);
    await m.ingest(sub.customer_id, times(1001));
    await m.advance('2028-02-29T09:30:00.002Z');
    const [order] = await m.cycleOrders(sub.id);
    expect(lines(order)[1]).toEqual(['Calls — (901 consumed units) × $0.005 — Capped at $3.00', 300]);
  });

  it('rolls unused credits over at the renewal, then credits the period again', async () => {
    const m = await usageMerchant(stack);
    const { meterId, plan } = await creditPlan(m, 100, true);
    const sub = await m.subscribe(plan);
    await m.ingest(sub.customer_id, times(30));
    await m.advance('2028-02-29T09:30:00.002Z');
    const [order] = await m.cycleOrders(sub.id);
    expect(lines(order)[1]).toEqual(['Calls — (0 consumed units) × $0.005', 0]);
    await m.advance('2028-03-01T00:00:00.000Z');
    expect(await customerMeter(m, sub.customer_id, meterId)).toMatchObject({
      consumed_units: 0,
      credited_units: 170,
      balance: 170,
    });
  });

  it('debits the credit when the benefit is revoked', async () => {
    const m = await usageMerchant(stack);
    const { meterId, plan } = await creditPlan(m, 100, false);
    const sub = await m.subscribe(plan);
    await m.ingest(sub.customer_id, times(10));
    expect((await m.req('DELETE', `/v1/subscriptions/${sub.id}`)).status).toBe(200);
    await m.advance('2028-02-01T00:00:00.000Z');
    expect(await customerMeter(m, sub.customer_id, meterId)).toMatchObject({
      consumed_units: 10,
      credited_units: 0,
      balance: -10,
    });
    const credits = await m.req('GET', '/v1/events/?name=meter.credited&sorting=timestamp');
    expect(credits.body.items.map((e: any) => e.metadata.units).sort()).toEqual([-100, 100]);
  });
});

describe('the billing job killed mid-run', () => {
  it('bills each event exactly once: a step whose session dies rolls back, and concurrent re-runs write nothing twice', async () => {
    const m = await usageMerchant(stack);
    const meterId = await m.meterOf('Calls');
    const sub = await m.subscribe(
      await m.product({ prices: [{ amount_type: 'metered_unit', meter_id: meterId, unit_amount: '1' }] }),
    );
    await m.ingest(sub.customer_id, times(2500));
    const orm = stack.sandbox.environment.billing.orm;
    const db = orm.em.fork().getConnection();
    const org = m.owner.organizationId;
    // Whatever the job did already is undone, so the killed step has the whole backlog in front of it.
    await db.execute('delete from billing.billing_entries where organization_id = ?', [org]);
    await db.execute('delete from billing.usage_billing_cursors where organization_id = ?', [org]);
    const far = new Date('2100-01-01T00:00:00Z');
    // The step writes its entries and moves the cursor, then its database session is killed before the commit.
    await expect(
      orm.em.fork().transactional(async tx => {
        const step = await new BillingEntryQueries(tx).step(org, far, 1000, new Date());
        expect(step.billed).toBe(1000);
        await tx.execute('select pg_terminate_backend(pg_backend_pid())');
      }),
    ).rejects.toThrow();
    const [left] = await db.execute(
      'select count(*)::int as n from billing.billing_entries where organization_id = ?',
      [org],
    );
    expect(left.n).toBe(0);
    // Three runs at once (and the service's own sweep, woken by the ingest) finish the work.
    await Promise.all([billUsage(orm.em, org, far), billUsage(orm.em, org, far), billUsage(orm.em, org, far)]);
    const [entries] = await db.execute(
      'select count(*)::int as n, count(distinct event_id)::int as events from billing.billing_entries where organization_id = ?',
      [org],
    );
    expect(entries).toEqual({ n: 2500, events: 2500 });
    await m.advance('2028-02-29T09:30:00.002Z');
    const [order] = await m.cycleOrders(sub.id);
    expect(lines(order)[1]).toEqual(['Calls — (2,500 consumed units) × $0.01', 2500]);
  });
});

describe('an ingest that commits after a later one was billed past', () => {
  it('is billed all the same: the next step looks again at what the last one could not see', async () => {
    const m = await usageMerchant(stack);
    const meterId = await m.meterOf('Calls');
    const sub = await m.subscribe(
      await m.product({ prices: [{ amount_type: 'metered_unit', meter_id: meterId, unit_amount: '1' }] }),
    );
    // One event first, so its event type exists (the held statement would otherwise hold its name's row).
    await m.ingest(sub.customer_id, times(1));
    const orm = stack.sandbox.environment.billing.orm;
    const org = m.owner.organizationId;
    const far = new Date('2100-01-01T00:00:00Z');
    let release!: () => void;
    const held = new Promise<void>(resolve => {
      release = resolve;
    });
    let inserted!: () => void;
    const insertedYet = new Promise<void>(resolve => {
      inserted = resolve;
    });
    // The ingest statement of an earlier instant, its transaction held open.
    const early = new Date(new Date(sub.started_at).getTime() + 30_000).toISOString();
    const slow = orm.em.fork().transactional(async tx => {
      await new UsageEventQueries(tx).insertBatch(
        [
          {
            organization_id: org,
            name: 'api.call',
            timestamp: early,
            ingested_at: early,
            customer_id: sub.customer_id,
          },
        ],
        { organizationId: org, ingestedAt: early },
      );
      inserted();
      await held;
    });
    await insertedYet;
    // A later ingest commits first and is billed: the cursor moves past the held event's instant.
    await m.ingest(sub.customer_id, times(2));
    await billUsage(orm.em, org, far);
    const entries = async () => {
      const [row] = await orm.em
        .fork()
        .getConnection()
        .execute('select count(*)::int as n from billing.billing_entries where organization_id = ?', [org]);
      return row.n;
    };
    expect(await entries()).toBe(3);
    release();
    await slow;
    await billUsage(orm.em, org, far);
    expect(await entries()).toBe(4);
    await m.advance('2028-02-29T09:30:00.002Z');
    const [order] = await m.cycleOrders(sub.id);
    expect(lines(order)[1]).toEqual(['Calls — (4 consumed units) × $0.01', 4]);
  });
});

describe("customers' first_user_event_at", () => {
  it('is the earliest user event, moved earlier only; system events do not count; a later external id finds its events', async () => {
    const m = await usageMerchant(stack);
    const created = await m.req('POST', '/v1/customers/', { email: 'first@example.com' });
    expect(created.body.first_user_event_at).toBeNull();
    await m.ingest(created.body.id, [
      { timestamp: '2028-01-20T00:00:00.000Z' },
      { timestamp: '2028-01-10T00:00:00.000Z' },
    ]);
    await m.ingest(created.body.id, [{ timestamp: '2028-01-25T00:00:00.000Z' }]);
    await m.advance('2028-02-01T00:00:00.000Z');
    const read = await m.req('GET', `/v1/customers/${created.body.id}`);
    expect(read.body.first_user_event_at).toBe('2028-01-10T00:00:00.000Z');
    // Events that name an external id before its customer exists.
    const events = [{ timestamp: '2028-01-15T00:00:00.000Z' }].map(e => ({
      ...e,
      name: 'api.call',
      external_customer_id: 'late-1',
    }));
    expect((await m.req('POST', '/v1/events/ingest', { events })).status).toBe(200);
    const later = await m.req('POST', '/v1/customers/', { email: 'late@example.com', external_id: 'late-1' });
    expect(later.body.first_user_event_at).toBe('2028-01-15T00:00:00.000Z');
    const state = await m.req('GET', '/v1/customers/external/late-1/state');
    expect(state.body.first_user_event_at).toBe('2028-01-15T00:00:00.000Z');
  });
});
