import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { seedDueRenewals } from '../../bench/seed-renewals.js';
import { fixedClock } from '../../subgraphs/billing/time/organization-clocks.js';
import { openBillingOrm } from '../../subgraphs/billing/orm.js';
import { createPaymentProcessor } from '../../subgraphs/billing/payments/payment-processor.selection.js';
import type { ChargeInput, PaymentProcessor } from '../../subgraphs/billing/payments/payment-processor.js';
import { RenewalEngine } from '../../subgraphs/billing/subscriptions/lifecycle/renewal-engine.js';
import { createMigratedTestDatabase } from '../support/database.js';

/**
 * Exactly once, enforced by the database: 2,000 subscriptions due at one instant, renewed by two
 * schedulers at once (each its own connection pool, as two processes would be), then by a scheduler
 * whose work dies after the processor charged and before the renewal was committed, restarted. Checked in
 * SQL: one `subscription_cycle` order, one payment and one processor charge per subscription and period.
 *
 * That they raced is made certain, not left to timing: both list the same rows in the same order, so the
 * later one could trail the first one row behind to the end and renew none (at 2,000 rows on CI's
 * PostgreSQL it once did). The first scheduler's charges wait until the second has charged; the second
 * starts only once the first holds its rows mid-renewal, lists them too, and, having more workers than the
 * first has rows in hand, renews the next ones. Both then renew the rest side by side. RENEWALS_ONCE_COUNT
 * runs it at another size; the throughput at scale is the bench's target r (bench/renewals.ts).
 */
jest.setTimeout(3_600_000);
const DUE = new Date('2028-03-31T12:00:00.000Z');
const COUNT = Number(process.env.RENEWALS_ONCE_COUNT ?? 2_000);
/** Due rows per listing: small, so the two schedulers list and race many times over COUNT rows. */
const BATCH = Math.max(50, Math.round(COUNT / 50));
/** The dying scheduler's subscriptions: 50 renewals die after their charge, 100 commit. */
const DYING_COUNT = Math.min(150, COUNT);
/** The first scheduler's renewals in flight; the second has twice as many, so some find rows of their own. */
const FIRST_CONCURRENCY = 4;
/** How long the first scheduler waits for the second's charge before the test fails instead of hanging. */
const GATE_MS = 120_000;
let database: { url: string; drop: () => Promise<void> };
const orms: MikroORM[] = [];

beforeAll(async () => {
  database = await createMigratedTestDatabase('renewals_once');
  // A renewal in flight holds a connection and its charge takes another (the test processor's own): a pool
  // of twice the scheduler's concurrency, or the second scheduler's eight would wait on their pool for ever.
  orms.push(
    await openBillingOrm(database.url, FIRST_CONCURRENCY * 2),
    await openBillingOrm(database.url, FIRST_CONCURRENCY * 4),
  );
});
afterAll(async () => {
  for (const orm of orms) await orm.close();
  await database?.drop();
});

function testProcessor(orm: MikroORM): PaymentProcessor {
  return createPaymentProcessor(
    { processor: 'test', because: 'sandbox' },
    { em: orm.em.fork(), clock: fixedClock(DUE) },
  );
}

function engine(orm: MikroORM, payments = testProcessor(orm), concurrency = FIRST_CONCURRENCY): RenewalEngine {
  return new RenewalEngine({ orm, payments, environment: 'sandbox', batchSize: BATCH, concurrency });
}

/** The processor with something run around each charge (the other methods are the real ones). */
function aroundCharge(
  real: PaymentProcessor,
  around: (charge: () => ReturnType<PaymentProcessor['charge']>) => ReturnType<PaymentProcessor['charge']>,
): PaymentProcessor {
  return {
    ...real,
    name: real.name,
    createCustomer: i => real.createCustomer(i),
    savePaymentMethod: i => real.savePaymentMethod(i),
    refund: i => real.refund(i),
    charge: (input: ChargeInput) => around(() => real.charge(input)),
  };
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  /** The promise, or a failure after `ms` (one timer, however many wait). */
  within(ms: number, failure: string): Promise<void>;
}

function deferred(): Deferred {
  let resolve = () => {};
  const promise = new Promise<void>(r => (resolve = r));
  let bounded: Promise<void> | undefined;
  return {
    promise,
    resolve,
    within(ms, failure) {
      bounded ??= new Promise<void>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`${failure} within ${ms} ms`)), ms);
        void promise.then(() => {
          clearTimeout(timer);
          ok();
        });
      });
      return bounded;
    },
  };
}

async function perSubscription(organizationId: string) {
  const [row] = await orms[0].em.fork().execute<Record<string, string>[]>(
    `select
       (select count(*) from billing.subscriptions where organization_id = ?) as subscriptions,
       (select count(*) from billing.subscriptions where organization_id = ? and current_period_start = ?) as renewed,
       (select count(*) from billing.orders where organization_id = ? and billing_reason = 'subscription_cycle') as orders,
       (select count(*) from (select subscription_id, billing_period_start from billing.orders
          where organization_id = ? and billing_reason = 'subscription_cycle'
          group by 1, 2 having count(*) > 1) d) as duplicated_periods,
       (select count(*) from billing.payments p join billing.orders o on o.id = p.order_id
          where o.organization_id = ? and o.billing_reason = 'subscription_cycle') as payments,
       (select count(*) from billing.test_processor_charges c
          where c.metadata->>'subscription_id' in (select id::text from billing.subscriptions where organization_id = ?)) as charges,
       (select count(*) from billing.orders where organization_id = ? and billing_reason = 'subscription_cycle' and status = 'paid') as paid`,
    [
      organizationId,
      organizationId,
      DUE,
      organizationId,
      organizationId,
      organizationId,
      organizationId,
      organizationId,
    ],
  );
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}

const once = (n: number) => ({
  subscriptions: n,
  renewed: n,
  orders: n,
  duplicated_periods: 0,
  payments: n,
  charges: n,
  paid: n,
});

it(`two schedulers over the same ${COUNT.toLocaleString('en')} due subscriptions renew each one once`, async () => {
  const organizationId = randomUUID();
  await seedDueRenewals({ databaseUrl: database.url, organizationId, count: COUNT, periodEnd: DUE });
  const firstHoldsRows = deferred();
  const secondCharged = deferred();
  const a = engine(
    orms[0],
    aroundCharge(testProcessor(orms[0]), async charge => {
      firstHoldsRows.resolve();
      await secondCharged.within(GATE_MS, 'the second scheduler charged nothing');
      return charge();
    }),
  );
  const b = engine(
    orms[1],
    aroundCharge(testProcessor(orms[1]), async charge => {
      secondCharged.resolve();
      return charge();
    }),
    FIRST_CONCURRENCY * 2,
  );
  const scope = { organizationId: null, at: DUE };
  const runA = a.runUntilIdle(scope);
  await firstHoldsRows.promise;
  const [doneA, doneB] = await Promise.all([runA, b.runUntilIdle(scope)]);
  expect(doneA + doneB).toBe(COUNT);
  expect(doneA).toBeGreaterThan(0);
  expect(doneB).toBeGreaterThan(0);
  expect(await perSubscription(organizationId)).toEqual(once(COUNT));
  // Run again (a late scheduler, a retry): nothing is due any more, nothing changes.
  expect(await a.runUntilIdle(scope)).toBe(0);
  expect(await perSubscription(organizationId)).toEqual(once(COUNT));
});

it('a scheduler that dies after charging, before committing, is replaced without charging twice', async () => {
  const organizationId = randomUUID();
  const count = DYING_COUNT;
  await seedDueRenewals({ databaseUrl: database.url, organizationId, count, periodEnd: DUE });
  const real = testProcessor(orms[0]);
  // The processor charges, then the worker "dies" before its transaction commits: every 3rd charge.
  let calls = 0;
  const dying = aroundCharge(real, async charge => {
    const outcome = await charge();
    calls += 1;
    if (calls % 3 === 0) throw new Error('killed after the charge');
    return outcome;
  });
  const first = engine(orms[0], dying);
  await first.runUntilIdle({ organizationId, at: DUE });
  const half = await perSubscription(organizationId);
  // The processor charged every subscription; the renewals whose worker died rolled back whole (the
  // charge is in the renewal's transaction): no order, no payment, the subscription still due.
  expect(half.charges).toBe(count);
  expect(half.orders).toBeLessThan(count);
  expect(half.renewed).toBe(half.orders);
  expect(half.payments).toBe(half.orders);
  expect(half.paid).toBe(half.orders);
  // The restarted scheduler replays those charges with the same keys: the processor answers the first outcome.
  await engine(orms[1]).runUntilIdle({ organizationId, at: DUE });
  expect(await perSubscription(organizationId)).toEqual(once(count));
});
