import { randomUUID } from 'node:crypto';
import { fingerprintOf } from '../../rest-adapter/guards/idempotency/middleware.js';
import { PostgresIdempotencyStore } from '../../rest-adapter/guards/idempotency/postgres-store.js';
import { call, createTenant, type Tenant } from '../support/stack.js';
import { type LimitedEnvironment, startLimited, testDatabase } from './support.js';

/**
 * Idempotency-Key on the API's POSTs (Stripe's semantics, docs/reliability.md#idempotency-keys, docs/reliability.md#checked-cases cases 9-12),
 * through real HTTP on the embedded topology, whose keys live in PostgreSQL (`edge.idempotency_keys`).
 */
let database: { url: string; drop: () => Promise<void> };
let env: LimitedEnvironment;
let alice: Tenant;
let bob: Tenant;

beforeAll(async () => {
  database = await testDatabase('idempotency');
  env = await startLimited(database.url, { RATE_LIMITS: 'off' });
  alice = await createTenant(env);
  bob = await createTenant(env);
});
afterAll(async () => {
  await env?.close();
  await database?.drop();
});

const product = (name: string) => ({
  name,
  recurring_interval: 'month',
  prices: [{ amount_type: 'fixed', price_amount: 1500 }],
});
const createProduct = (token: string, key: string | undefined, body: unknown) =>
  call(env.baseUrl, 'POST', '/v1/products/', { token, body, headers: key ? { 'idempotency-key': key } : {} });
const productCount = async (token: string) =>
  (await call(env.baseUrl, 'GET', '/v1/products/?limit=1', { token })).body.pagination.total_count as number;

describe('Idempotency-Key', () => {
  it('replays the first result, status and body, and creates nothing new', async () => {
    const key = randomUUID();
    const before = await productCount(alice.oat);
    const first = await createProduct(alice.oat, key, product('Replayed'));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await createProduct(alice.oat, key, product('Replayed'));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.text).toBe(first.text);
    expect(await productCount(alice.oat)).toBe(before + 1);
  });

  it('answers 422 to the same key with another body, and changes nothing', async () => {
    const key = randomUUID();
    expect((await createProduct(alice.oat, key, product('Original'))).status).toBe(201);
    const before = await productCount(alice.oat);
    const other = await createProduct(alice.oat, key, product('Something else'));
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ error: 'IdempotencyKeyReused', detail: expect.any(String) });
    expect(await productCount(alice.oat)).toBe(before);
  });

  it('answers 409 while the first request with the key is still running, then runs once it is released', async () => {
    const key = randomUUID();
    const body = product('Concurrent');
    // The first request, held open: its claim, taken as the adapter takes it.
    const store = await PostgresIdempotencyStore.open(database.url);
    try {
      const claim = await store.claim(
        `organization:${alice.organizationId}`,
        key,
        fingerprintOf('POST', '/v1/products/', body),
      );
      expect(claim.outcome).toBe('claimed');
      const before = await productCount(alice.oat);
      const duplicate = await createProduct(alice.oat, key, body);
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toEqual({ error: 'IdempotencyKeyInUse', detail: expect.any(String) });
      expect(await productCount(alice.oat)).toBe(before);
      // A first request that failed (5xx) gives its key back: the retry runs.
      if (claim.outcome === 'claimed') await claim.release();
      expect((await createProduct(alice.oat, key, body)).status).toBe(201);
    } finally {
      await store.close();
    }
  });

  it('runs 20 concurrent identical requests exactly once; the others are 409 or the replay', async () => {
    const key = randomUUID();
    const before = await productCount(alice.oat);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => createProduct(alice.oat, key, product('Twenty at once'))),
    );
    const executed = responses.filter(r => r.status === 201 && !r.headers.get('idempotent-replayed'));
    expect(executed).toHaveLength(1);
    for (const r of responses) {
      if (r.status === 409) expect(r.body.error).toBe('IdempotencyKeyInUse');
      else expect(r.text).toBe(executed[0].text);
    }
    expect(await productCount(alice.oat)).toBe(before + 1);
  });

  it('keeps keys per organization: the same key in another organization runs on its own', async () => {
    const key = randomUUID();
    const a = await createProduct(alice.oat, key, product('Shared key'));
    const b = await createProduct(bob.oat, key, product('Shared key'));
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.body.id).not.toBe(a.body.id);
    expect(b.body.organization_id).toBe(bob.organizationId);
  });

  it('keeps keys per principal: the owner’s personal token does not see the organization’s result', async () => {
    const key = randomUUID();
    const viaOat = await createProduct(alice.oat, key, product('Per principal'));
    const viaPat = await createProduct(alice.pat, key, {
      ...product('Per principal'),
      organization_id: alice.organizationId,
    });
    expect(viaOat.status).toBe(201);
    expect(viaPat.status).toBe(201);
    expect(viaPat.body.id).not.toBe(viaOat.body.id);
  });

  it('stores a 4xx result too: a replayed validation error is the same error', async () => {
    const key = randomUUID();
    const first = await createProduct(alice.oat, key, { name: 'No prices' });
    expect(first.status).toBe(422);
    const again = await createProduct(alice.oat, key, { name: 'No prices' });
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
  });

  it('refuses a key longer than 255 characters as a header validation error', async () => {
    const res = await createProduct(alice.oat, 'k'.repeat(256), product('Long key'));
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('RequestValidationError');
    expect(res.body.detail[0]).toMatchObject({ type: 'string_too_long', loc: ['header', 'idempotency-key'] });
  });

  it('leaves POST /graphql alone: a query with a key is answered afresh each time', async () => {
    const key = randomUUID();
    const query = { query: '{ products(limit: 1) { pagination { totalCount } } }' };
    const ask = () =>
      call(env.baseUrl, 'POST', '/graphql', { token: alice.oat, body: query, headers: { 'idempotency-key': key } });
    const first = await ask();
    expect(first.status).toBe(200);
    expect((await createProduct(alice.oat, undefined, product('Between two queries'))).status).toBe(201);
    const second = await ask();
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.data.products.pagination.totalCount).toBe(first.body.data.products.pagination.totalCount + 1);
  });

  it('without a key, every POST runs', async () => {
    const before = await productCount(alice.oat);
    expect((await createProduct(alice.oat, undefined, product('No key'))).status).toBe(201);
    expect((await createProduct(alice.oat, undefined, product('No key'))).status).toBe(201);
    expect(await productCount(alice.oat)).toBe(before + 2);
  });
});
