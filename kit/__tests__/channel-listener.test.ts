import pg from 'pg';
import { createTestDatabase } from '../../test/support/database.js';
import { ChannelListener } from '../database/channel-listener.js';

let database: { url: string; drop: () => Promise<void> };
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase('channel_listener');
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

/** Resolves once `calls` reaches `n` (the listener calls back asynchronously). */
async function until(calls: () => number, n: number): Promise<void> {
  while (calls() < n) await new Promise(r => setTimeout(r, 10));
}

it('calls back for a notification at its commit, not before, and again after its connection is cut', async () => {
  let calls = 0;
  const listener = new ChannelListener(database.url, 'test_queued', () => calls++, 'channel-listener-test');
  try {
    await listener.start();
    await until(() => calls, 1); // connected: whatever was missed is looked at once
    await client.query('begin');
    await client.query(`select pg_notify('test_queued', '')`);
    await client.query(`select pg_notify('other_channel', '')`);
    // Not a timing assertion: PostgreSQL holds a notification until its transaction commits, so however
    // long this waits, nothing may have arrived yet.
    await new Promise(r => setTimeout(r, 50));
    expect(calls).toBe(1);
    await client.query('commit');
    await until(() => calls, 2);

    await client.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'channel-listener-test'`,
    );
    await until(() => calls, 3); // reconnected (and looks again)
    await client.query(`select pg_notify('test_queued', '')`);
    await until(() => calls, 4);
  } finally {
    await listener.close();
  }
  expect(calls).toBe(4);
});

it('refuses a channel name it would have to quote', () => {
  expect(() => new ChannelListener('postgresql://x', 'drop table; --', () => undefined, 'x')).toThrow(/channel/);
});
