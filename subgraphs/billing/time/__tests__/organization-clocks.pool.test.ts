import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from '../../../../test/support/database.js';
import { openBillingOrm } from '../../orm.js';
import { OrganizationClocks } from '../organization-clocks.js';
import { writeClockOffset } from '../sandbox-clock.repository.js';

/**
 * Reading an organization's sandbox clock from inside a transaction must not need a second pooled
 * connection: with a pool of one, a read that forked the manager would wait for the connection its own
 * transaction holds, forever (the test would time out).
 */
let orm: MikroORM;
let drop: () => Promise<void>;
const wall = { now: () => new Date('2030-01-01T00:00:00Z') };

beforeAll(async () => {
  const database = await createTestDatabase('clock_pool');
  drop = database.drop;
  orm = (await openBillingOrm(database.url, 1)) as MikroORM;
});
afterAll(async () => {
  await orm?.close();
  await drop?.();
});

it('reads the clock through the open transaction of a pool of one connection', async () => {
  const organizationId = randomUUID();
  await writeClockOffset(orm.em.fork(), organizationId, 86_400_000, wall.now());
  const clocks = new OrganizationClocks(wall, 'sandbox');
  const requestEm = orm.em.fork();
  const seen = await requestEm.transactional(async tx => {
    await tx.execute('select 1'); // the transaction holds the pool's only connection from here on
    return (await clocks.clockFor(requestEm, organizationId)).now();
  });
  expect(seen.toISOString()).toBe('2030-01-02T00:00:00.000Z');
  // Outside a transaction it forks as before.
  expect((await clocks.clockFor(orm.em.fork(), organizationId)).now().toISOString()).toBe('2030-01-02T00:00:00.000Z');
});

it('reads the wall clock in production without touching the database', async () => {
  const clocks = new OrganizationClocks(wall, 'production');
  expect((await clocks.clockFor(orm.em.fork(), randomUUID())).now()).toEqual(wall.now());
});
