import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../kit/config.js';
import { createLogger } from '../../kit/logger.js';
import { assembleRestApp } from '../../rest-adapter/assemble.js';
import { InProcessGatewayClient } from '../../rest-adapter/upstream/gateway-client.js';
import { createRequestGuards, type RequestGuards } from '../../rest-adapter/guards/request-guards.js';
import { call, createTenant, type Tenant } from '../support/stack.js';
import {
  deleteKeys,
  eventually,
  type LimitedEnvironment,
  MACHINE_REDIS,
  startLimited,
  testDatabase,
  uniquePrefix,
} from './support.js';

/**
 * The distributed topology's REST adapter holds no database: its idempotency keys live in Redis. Two
 * such adapters (built as rest-adapter/main.ts builds one: guards without a database, REDIS_URL set)
 * in front of one environment share their keys: a key used at one is replayed at the other.
 */
let database: { url: string; drop: () => Promise<void> };
let env: LimitedEnvironment;
let alice: Tenant;
const prefix = uniquePrefix('idem-http');
const adapters: { url: string; server: Server; guards: RequestGuards }[] = [];

async function adapterWithoutDatabase(): Promise<string> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    REDIS_URL: MACHINE_REDIS,
    REDIS_KEY_PREFIX: prefix,
  });
  const logger = createLogger('silent');
  const guards = await createRequestGuards({ environment: 'production', config, logger });
  const app = assembleRestApp({
    environment: 'production',
    publicUrl: 'http://127.0.0.1',
    gateway: new InProcessGatewayClient(env.environment.gateway),
    principals: env.environment.identity.principals,
    logger,
    ready: async () => true,
    guards,
  });
  const server = await new Promise<Server>(resolve => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  adapters.push({ url, server, guards });
  return url;
}

beforeAll(async () => {
  database = await testDatabase('idempotency_redis');
  env = await startLimited(database.url, { RATE_LIMITS: 'off' });
  alice = await createTenant(env);
});
afterAll(async () => {
  for (const { server, guards } of adapters) {
    server.closeAllConnections();
    await new Promise(resolve => server.close(resolve));
    await guards.close();
  }
  await env?.close();
  await deleteKeys(MACHINE_REDIS, prefix);
  await database?.drop();
});

it('replays at one adapter what another one ran, from Redis', async () => {
  const [first, second] = [await adapterWithoutDatabase(), await adapterWithoutDatabase()];
  // Until its connection is up an adapter keeps keys in memory: start once both are on Redis.
  for (const url of [first, second])
    await eventually(async () => (await call(url, 'GET', '/readyz')).body.redis === 'ok');
  const key = randomUUID();
  const body = { name: 'Across adapters', recurring_interval: 'month', prices: [{ amount_type: 'free' }] };
  const count = async () =>
    (await call(first, 'GET', '/v1/products/?limit=1', { token: alice.oat })).body.pagination.total_count;
  const before = await count();
  const ran = await call(first, 'POST', '/v1/products/', {
    token: alice.oat,
    body,
    headers: { 'idempotency-key': key },
  });
  expect(ran.status).toBe(201);
  const replayed = await call(second, 'POST', '/v1/products/', {
    token: alice.oat,
    body,
    headers: { 'idempotency-key': key },
  });
  expect(replayed.status).toBe(201);
  expect(replayed.headers.get('idempotent-replayed')).toBe('true');
  expect(replayed.text).toBe(ran.text);
  const other = await call(second, 'POST', '/v1/products/', {
    token: alice.oat,
    body: { ...body, name: 'Another body' },
    headers: { 'idempotency-key': key },
  });
  expect(other.status).toBe(422);
  expect(await count()).toBe(before + 1);
  expect((await call(second, 'GET', '/readyz')).body).toEqual({ status: 'ok', redis: 'ok' });
});
