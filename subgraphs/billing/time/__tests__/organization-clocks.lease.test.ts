import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from '../../../../test/support/database.js';
import { openBillingOrm } from '../../orm.js';
import { type DueWorkRunner } from '../due-work.js';
import { OrganizationClocks } from '../organization-clocks.js';
import { SandboxClockBusy } from '../sandbox-clock.errors.js';
import { readClockOffset } from '../sandbox-clock.repository.js';

/**
 * An advance holds its organization's lease in `billing.sandbox_clocks`, never a pooled connection
 * while it waits or works: on a pool of ONE connection, advances of one organization queue and run,
 * each with due work that itself needs the connection (before, the advance's lock transaction held
 * the only connection and the work waited for it forever). A lease another process holds is waited
 * for, within a bound; one a crashed advance left is taken over once it ran out; one being worked
 * under is renewed, so it does not run out under a long advance.
 */
let orm: MikroORM;
let drop: () => Promise<void>;
const wall = { now: () => new Date('2030-01-01T00:00:00Z') };

beforeAll(async () => {
  const database = await createTestDatabase('clock_lease');
  drop = database.drop;
  orm = (await openBillingOrm(database.url, 1)) as MikroORM;
});
afterAll(async () => {
  await orm?.close();
  await drop?.();
});

/** Work due once a day at midnight, whose run reads the database (as every real runner does). */
function dailyWork(ran: string[], pauseMs = 0): DueWorkRunner {
  return {
    name: 'daily',
    async nextDueAt(_organizationId, upTo) {
      const last = ran.length ? new Date(ran[ran.length - 1]) : wall.now();
      const next = new Date(last.getTime() + 86_400_000);
      return next <= upTo ? next : null;
    },
    async runDue(work) {
      await orm.em.fork().execute('select 1');
      if (pauseMs) await sleep(pauseMs);
      ran.push(work.at.toISOString());
    },
  };
}

const offsetOf = (organizationId: string) => readClockOffset(orm.em.fork(), organizationId);

/** Another process's advance, in the middle of its work: its lease runs `ms` more. */
async function leaseHeldElsewhere(organizationId: string, ms: number): Promise<void> {
  await orm.em.fork().execute(
    `insert into billing.sandbox_clocks (organization_id, offset_ms, updated_at, advance_token, advancing_until)
       values (?, 0, now(), ?, clock_timestamp() + make_interval(secs => ?::double precision / 1000))`,
    [organizationId, randomUUID(), ms],
  );
}

it('advances of one organization at once all run on a pool of one connection, one after the other', async () => {
  const organizationId = randomUUID();
  const ran: string[] = [];
  const clocks = new OrganizationClocks(wall, 'sandbox');
  clocks.register(dailyWork(ran));
  const answers = await Promise.all(
    [1, 2, 3].map(() => clocks.advance(orm.em.fork(), organizationId, { seconds: 2 * 86_400 })),
  );
  expect(answers.map(a => a.toISOString()).sort()).toEqual([
    '2030-01-03T00:00:00.000Z',
    '2030-01-05T00:00:00.000Z',
    '2030-01-07T00:00:00.000Z',
  ]);
  expect(ran).toEqual(
    ['2030-01-02', '2030-01-03', '2030-01-04', '2030-01-05', '2030-01-06', '2030-01-07'].map(d => `${d}T00:00:00.000Z`),
  );
  expect(await offsetOf(organizationId)).toBe(6 * 86_400_000);
});

it("waits for another process's advance within its bound, then answers 409 SandboxClockBusy and moves nothing", async () => {
  const organizationId = randomUUID();
  await leaseHeldElsewhere(organizationId, 60_000);
  const clocks = new OrganizationClocks(wall, 'sandbox', { waitMs: 300 });
  const refused = await clocks.advance(orm.em.fork(), organizationId, { seconds: 60 }).catch(error => error);
  expect(refused).toBeInstanceOf(SandboxClockBusy);
  expect(refused).toMatchObject({ status: 409, code: 'SandboxClockBusy' });
  expect(await offsetOf(organizationId)).toBe(0);
});

it('takes over the lease of an advance that crashed, once it ran out', async () => {
  const organizationId = randomUUID();
  await leaseHeldElsewhere(organizationId, 200);
  const clocks = new OrganizationClocks(wall, 'sandbox', { waitMs: 5000 });
  const now = await clocks.advance(orm.em.fork(), organizationId, { seconds: 60 });
  expect(now.toISOString()).toBe('2030-01-01T00:01:00.000Z');
  expect(await offsetOf(organizationId)).toBe(60_000);
});

it('renews its lease while it works, so a long advance is not taken over; the lease is given up at the end', async () => {
  const organizationId = randomUUID();
  const ran: string[] = [];
  const worker = new OrganizationClocks(wall, 'sandbox', { leaseMs: 300 });
  worker.register(dailyWork(ran, 400)); // each day's work outlasts the lease
  const other = new OrganizationClocks(wall, 'sandbox', { waitMs: 600 }); // another process
  const working = worker.advance(orm.em.fork(), organizationId, { seconds: 3 * 86_400 });
  await sleep(450);
  const refused = await other.advance(orm.em.fork(), organizationId, { seconds: 60 }).catch(error => error);
  expect(refused).toBeInstanceOf(SandboxClockBusy);
  expect((await working).toISOString()).toBe('2030-01-04T00:00:00.000Z');
  expect(ran).toHaveLength(3);
  // Given up: the other process's next advance runs at once.
  expect((await other.advance(orm.em.fork(), organizationId, { seconds: 60 })).toISOString()).toBe(
    '2030-01-04T00:01:00.000Z',
  );
});
