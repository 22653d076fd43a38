import pg from 'pg';
import { call } from '../support/stack.js';
import {
  env,
  base,
  alice,
  bob,
  fixtures,
  customerId,
  freeSubscription,
  patch,
  get,
  useSubscriptionsUpdateStack,
} from './support/subscriptions-update.js';

/** `PATCH /v1/subscriptions/{id}` through REST → gateway → billing → PostgreSQL (docs/interface.md#subscription-changes, docs/interface.md#endpoints; docs/polar/resources.md#subscription, docs/polar/subscription-lifecycle.md). */
useSubscriptionsUpdateStack();

describe('rule 2: another update in flight → 409 SubscriptionLocked at once', () => {
  it('answers 409 fast while the advisory lock is held, changes nothing, and works once it is released', async () => {
    const s = await freeSubscription();
    const before = (await get(s.id)).body;
    const client = new pg.Client({ connectionString: env.environment.billing.orm.config.get('clientUrl') });
    await client.connect();
    try {
      await client.query('begin');
      await client.query("select pg_advisory_xact_lock(hashtextextended('subscription:' || $1::text, 0))", [s.id]);
      const started = Date.now();
      const res = await patch(s.id, { metadata: { racing: true } });
      const revoked = await call(base, 'DELETE', `/v1/subscriptions/${s.id}`, { token: alice.oat });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'SubscriptionLocked', detail: 'This subscription is pending an update.' });
      expect(revoked.status).toBe(409);
      expect((await get(s.id)).body).toEqual(before);
    } finally {
      await client.query('rollback');
      await client.end();
    }
    const after = await patch(s.id, { metadata: { racing: true } });
    expect(after.status).toBe(200);
    expect(after.body.metadata).toEqual({ racing: true });
  });

  it('two concurrent updates: one wins, the other is 409 or applies after it (no lost update)', async () => {
    const s = await freeSubscription();
    const results = await Promise.all([
      patch(s.id, { metadata: { a: 1 } }),
      patch(s.id, { discount_id: (await fixtures.discount(alice.organizationId, 'Race')).id }),
    ]);
    expect(results.map(r => r.status).sort()).toEqual(expect.arrayContaining([200]));
    for (const r of results) expect([200, 409]).toContain(r.status);
    const final = (await get(s.id)).body;
    if (results.every(r => r.status === 200)) {
      expect(final.metadata).toEqual({ a: 1 });
      expect(final.discount_id).toEqual(expect.any(String));
    }
  });
});

describe('tenancy and validation', () => {
  it('another organization gets 404; an unknown id is 404', async () => {
    const s = await freeSubscription();
    expect((await patch(s.id, { metadata: { x: 1 } }, bob.oat)).status).toBe(404);
    const unknown = await patch('00000000-0000-4000-8000-000000000000', { metadata: { x: 1 } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
  });

  it('a token without subscriptions:write is refused before the body is read', async () => {
    const s = await freeSubscription();
    const readOnly = await env.admin.createOrganizationAccessToken(alice.organizationId, ['subscriptions:read']);
    const res = await patch(s.id, { metadata: { x: 1 } }, readOnly);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
  });

  it('the same mutation answers GraphQL clients', async () => {
    const s = await freeSubscription();
    const res = await call(base, 'POST', '/graphql', {
      token: alice.pat,
      body: {
        query:
          'mutation($id: ID!) { updateSubscription(id: $id, input: { cancelAtPeriodEnd: true, customerCancellationReason: "unused" }) { id cancelAtPeriodEnd customerCancellationReason customer { id } product { name } } }',
        variables: { id: s.id },
      },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateSubscription).toEqual({
      id: s.id,
      cancelAtPeriodEnd: true,
      customerCancellationReason: 'unused',
      customer: { id: customerId },
      product: { name: 'Free A' },
    });
    const mixed = await call(base, 'POST', '/graphql', {
      token: alice.pat,
      body: {
        query: 'mutation($id: ID!) { updateSubscription(id: $id, input: { seats: 2, revoke: true }) { id } }',
        variables: { id: s.id },
      },
    });
    expect(mixed.body.errors[0].extensions.code).toBe('PolarRequestValidationError');
  });
});
