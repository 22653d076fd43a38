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

it('calls back for a notification at its commit, not before, and listens again after its connection is cut', async () => {
  const seen = { notified: [] as (string | undefined)[], listening: 0, lost: 0 };
  const listener = new ChannelListener(
    database.url,
    'test_queued',
    {
      notified: payload => seen.notified.push(payload),
      listening: () => seen.listening++,
      lost: () => seen.lost++,
    },
    'channel-listener-test',
  );
  try {
    await listener.start();
    expect(seen.listening).toBe(1);
    expect(listener.connected).toBe(true);
    await client.query('begin');
    await client.query(`select pg_notify('test_queued', 'first')`);
    await client.query(`select pg_notify('other_channel', 'elsewhere')`);
    // Not a timing assertion: PostgreSQL holds a notification until its transaction commits, so however
    // long this waits, nothing may have arrived yet.
    await new Promise(r => setTimeout(r, 50));
    expect(seen.notified).toEqual([]);
    await client.query('commit');
    await until(() => seen.notified.length, 1);
    expect(seen.notified).toEqual(['first']);

    const pid = listener.backendPid;
    expect(pid).toEqual(expect.any(Number));
    await client.query('select pg_terminate_backend($1)', [pid]);
    await until(() => seen.listening, 2); // reconnected
    expect(seen.lost).toBe(1);
    expect(listener.backendPid).not.toBe(pid);
    await client.query(`select pg_notify('test_queued', 'second')`);
    await until(() => seen.notified.length, 2);
  } finally {
    await listener.close();
  }
  expect(seen.notified).toEqual(['first', 'second']);
  expect(listener.connected).toBe(false);
});

it('refuses a channel name it would have to quote', () => {
  expect(() => new ChannelListener('postgresql://x', 'drop table; --', { notified: () => undefined }, 'x')).toThrow(
    /channel/,
  );
});
