import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { Entity, PrimaryKey, ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from '../../../test/support/database.js';
import { forgetEndedSessions } from '../ended-sessions.js';

/** A pool whose server sessions end under it (kit/database/ended-sessions.ts). */
@Entity({ tableName: 'nothing', schema: 'public' })
class Nothing {
  @PrimaryKey({ type: 'integer' }) id!: number;
}

let database: { url: string; drop: () => Promise<void> };
let orm: MikroORM;

beforeAll(async () => {
  database = await createTestDatabase('ended_sessions');
  // One connection: what the pool lends next is the one it was given back, unless it discarded it. A connection
  // it never got back would leave nothing to lend: the acquire timeout turns that into an error, not a hang.
  orm = await MikroORM.init({
    clientUrl: database.url,
    entities: [Nothing],
    metadataProvider: ReflectMetadataProvider,
    allowGlobalContext: false,
    pool: { min: 0, max: 1 },
    driverOptions: {
      connectionTimeoutMillis: 5_000,
      idle_in_transaction_session_timeout: 200,
      onPoolCreated: forgetEndedSessions,
    },
  });
});
afterAll(async () => {
  await orm?.close();
  await database?.drop();
});

const nextSession = async () => {
  const [row] = await orm.em.fork().execute('select pg_backend_pid() as pid, 1 as answer');
  return row as { pid: number; answer: number };
};

describe('a pooled connection whose server session ended inside a transaction', () => {
  it('killed while running a statement: the transaction rejects, and the next statement runs on a new session', async () => {
    const ended = new Set<number>();
    for (let round = 0; round < 25; round += 1) {
      await expect(
        orm.em.fork().transactional(async tx => {
          const [{ pid }] = await tx.execute('select pg_backend_pid() as pid');
          ended.add(pid);
          await tx.execute('select pg_terminate_backend(pg_backend_pid())');
        }),
      ).rejects.toThrow(/terminating connection due to administrator command/);
      const next = await nextSession();
      expect(next.answer).toBe(1);
      expect(ended.has(next.pid)).toBe(false);
    }
    expect(ended.size).toBe(25);
  });

  it('ended by the idle-in-transaction timeout: the pool gets its connection back and lends a new session', async () => {
    for (let round = 0; round < 3; round += 1) {
      let pid = 0;
      await expect(
        orm.em.fork().transactional(async tx => {
          [{ pid }] = await tx.execute('select pg_backend_pid() as pid');
          await sleep(600);
          await tx.execute('select 1');
        }),
      ).rejects.toThrow();
      const next = await nextSession();
      expect(next.answer).toBe(1);
      expect(next.pid).not.toBe(pid);
    }
  });
});
