import 'reflect-metadata';
import { MikroORM } from '@mikro-orm/postgresql';
import { billingOrmOptions } from '../../../subgraphs/billing/orm.js';
import { DEFAULT_DATABASE_WAITS } from '../../config.js';
import { ServiceUnavailable } from '../../errors.js';
import {
  connectionTypeOf,
  declareReadUrl,
  onConnectionOf,
  onReadReplica,
  readReplicaOptions,
} from '../read-replicas.js';

/**
 * The routing rule of kit/database/read-replicas.ts without a server (the ORMs are opened for their
 * configuration only; test/replicas/read-replica.test.ts runs it against a real streaming replica).
 */
const PRIMARY = 'postgresql://billing@db.internal:5432/billing';
const REPLICA = 'postgresql://billing@db-replica.internal:5432/billing';
const opened: MikroORM[] = [];
const openWithoutConnecting = async (url: string) => {
  const orm = await MikroORM.init({ ...billingOrmOptions(url, 1), connect: false } as never);
  opened.push(orm);
  return orm;
};
afterAll(async () => {
  for (const orm of opened) await orm.close();
  declareReadUrl(PRIMARY, undefined);
});

describe('without DATABASE_READ_URL', () => {
  it('configures no replica, hands back the same context, and reads on the primary', async () => {
    expect(readReplicaOptions(PRIMARY, DEFAULT_DATABASE_WAITS, 'x')).toEqual({ preferReadReplicas: false });
    const orm = await openWithoutConnecting(PRIMARY);
    expect(orm.config.get('replicas') ?? []).toEqual([]);
    const ctx = { em: orm.em.fork() };
    expect(onReadReplica(ctx)).toBe(ctx);
    expect(connectionTypeOf(ctx.em)).toBe('write');
    expect(orm.em.getConnection('read')).toBe(orm.em.getConnection('write'));
  });
});

describe('with DATABASE_READ_URL', () => {
  beforeAll(() => declareReadUrl(PRIMARY, REPLICA));

  it('gives the ORM one replica with the bounded waits, never preferred on its own', async () => {
    const options = readReplicaOptions(PRIMARY, DEFAULT_DATABASE_WAITS, 'billing-billing-read');
    expect(options.preferReadReplicas).toBe(false);
    expect(options.replicas).toEqual([
      {
        name: 'read',
        clientUrl: REPLICA,
        driverOptions: expect.objectContaining({
          application_name: 'billing-billing-read',
          connectionTimeoutMillis: DEFAULT_DATABASE_WAITS.acquireTimeoutMs,
          statement_timeout: DEFAULT_DATABASE_WAITS.statementTimeoutMs,
          onPoolCreated: expect.any(Function),
        }),
      },
    ]);
    // Another database of the same server is not covered by the declaration.
    expect(readReplicaOptions(`${PRIMARY}_other`, DEFAULT_DATABASE_WAITS, 'x').replicas).toBeUndefined();
  });

  it('sends only an onReadReplica context to the replica, and the request context keeps the primary', async () => {
    const orm = await openWithoutConnecting(PRIMARY);
    const ctx = { em: orm.em.fork(), requestId: 'r1' };
    const replica = onReadReplica(ctx);
    expect(replica).not.toBe(ctx);
    expect(replica.requestId).toBe('r1');
    expect(connectionTypeOf(replica.em)).toBe('read');
    expect(connectionTypeOf(ctx.em)).toBe('write');
    expect(connectionTypeOf(orm.em.fork())).toBe('write');
  });

  it("turns the replica's connection failures into 503 ServiceUnavailable, and leaves other errors alone", async () => {
    const orm = await openWithoutConnecting(PRIMARY);
    const replica = onReadReplica({ em: orm.em.fork() });
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.2:5432'), { code: 'ECONNREFUSED' });
    await expect(onConnectionOf(replica.em, () => Promise.reject(refused))).rejects.toBeInstanceOf(ServiceUnavailable);
    const recovery = Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' });
    await expect(onConnectionOf(replica.em, () => Promise.reject(recovery))).rejects.toMatchObject({
      status: 503,
      message: 'The read replica is unavailable. Try again shortly.',
    });
    const syntax = Object.assign(new Error('syntax error'), { code: '42601' });
    await expect(onConnectionOf(replica.em, () => Promise.reject(syntax))).rejects.toBe(syntax);
    // On the primary nothing is translated: its failures keep their own handling (kit/database/waits.ts).
    await expect(onConnectionOf(orm.em.fork(), () => Promise.reject(refused))).rejects.toBe(refused);
    await expect(onConnectionOf(replica.em, async type => type)).resolves.toBe('read');
  });
});
