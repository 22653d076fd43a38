import { ManualClock } from '../../kit/clock.js';
import type { DueWork } from '../../subgraphs/billing/time/due-work.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * The sandbox clock: each sandbox organization's billing lives on its own clock, which a merchant (and
 * our scenario tests) move forward to live through renewals in seconds. Production has no such paths.
 */
const START = new Date('2028-01-31T09:30:00.000Z');
const wall = new ManualClock(START);
let stack: TestStack;
let sandbox: string;
let alice: Tenant;
let bob: Tenant;

beforeAll(async () => {
  stack = await sharedTestStack(wall);
  sandbox = stack.sandbox.baseUrl;
  alice = await createTenant(stack.sandbox);
  bob = await createTenant(stack.sandbox);
});

const readClock = (token: string, query = '') => call(sandbox, 'GET', `/v1/sandbox/clock${query}`, { token });
const advance = (token: string, body: unknown) => call(sandbox, 'POST', '/v1/sandbox/clock/advance', { token, body });

describe('production', () => {
  it('has no sandbox clock: both paths are 404 {"detail":"Not Found"}, like any unknown path', async () => {
    const carol = await createTenant(stack.production);
    const base = stack.production.baseUrl;
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { seconds: 60 }],
    ] as const) {
      const path = method === 'GET' ? '/v1/sandbox/clock' : '/v1/sandbox/clock/advance';
      const res = await call(base, method, path, { token: carol.oat, body });
      expect([res.status, res.body]).toEqual([404, { detail: 'Not Found' }]);
    }
    const document = (await call(base, 'GET', '/openapi.json')).body;
    expect(Object.keys(document.paths).filter(p => p.startsWith('/v1/sandbox'))).toEqual([]);
  });

  it('answers the GraphQL field with 404 too', async () => {
    const carol = await createTenant(stack.production);
    const res = await call(stack.production.baseUrl, 'POST', '/graphql', {
      token: carol.oat,
      body: { query: '{ sandboxClock { organizationId now } }' },
    });
    expect(res.body.errors[0].extensions.code).toBe('ResourceNotFound');
  });
});

describe('reading the clock', () => {
  it("a new organization's clock reads the wall clock", async () => {
    const res = await readClock(bob.oat);
    expect([res.status, res.body]).toEqual([200, { organization_id: bob.organizationId, now: START.toISOString() }]);
  });

  it("a user's token names the organization; without it, 422 at query.organization_id", async () => {
    const named = await readClock(bob.pat, `?organization_id=${bob.organizationId}`);
    expect([named.status, named.body.organization_id]).toEqual([200, bob.organizationId]);
    const unnamed = await readClock(bob.pat);
    expect(unnamed.status).toBe(422);
    expect(unnamed.body.detail[0]).toMatchObject({ type: 'missing', loc: ['query', 'organization_id'] });
  });

  it("another organization's clock is 404, with a user's or an organization's token", async () => {
    for (const token of [bob.pat, bob.oat]) {
      const res = await readClock(token, `?organization_id=${alice.organizationId}`);
      expect([res.status, res.body.error]).toEqual([404, 'ResourceNotFound']);
    }
  });
});

describe('advancing the clock', () => {
  it('moves by seconds or to an instant, and the clock keeps reading that time (plus what the wall clock moved)', async () => {
    const tenant = await createTenant(stack.sandbox);
    const bySeconds = await advance(tenant.oat, { seconds: 86_400 });
    expect([bySeconds.status, bySeconds.body]).toEqual([
      200,
      { organization_id: tenant.organizationId, now: '2028-02-01T09:30:00.000Z' },
    ]);
    const toInstant = await advance(tenant.oat, { to: '2028-02-29T09:30:00Z' });
    expect(toInstant.body.now).toBe('2028-02-29T09:30:00.000Z');
    expect((await readClock(tenant.oat)).body.now).toBe('2028-02-29T09:30:00.000Z');

    wall.advance(60_000);
    try {
      expect((await readClock(tenant.oat)).body.now).toBe('2028-02-29T09:31:00.000Z');
      // Other organizations stay on the wall clock.
      expect((await readClock(alice.oat)).body.now).toBe('2028-01-31T09:31:00.000Z');
    } finally {
      wall.set(START);
    }
  });

  it('never moves backwards: 422 in the validation shape, and the clock is unchanged', async () => {
    const tenant = await createTenant(stack.sandbox);
    await advance(tenant.oat, { to: '2028-03-01T00:00:00Z' });
    const back = await advance(tenant.oat, { to: '2028-02-15T00:00:00Z' });
    expect(back.status).toBe(422);
    expect(back.body.error).toBe('PolarRequestValidationError');
    expect(back.body.detail).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'to'],
        msg: 'Value error, The clock only moves forward: it reads 2028-03-01T00:00:00.000Z.',
        input: '2028-02-15T00:00:00.000Z',
      },
    ]);
    const negative = await advance(tenant.oat, { seconds: -1 });
    expect(negative.status).toBe(422);
    expect(negative.body.detail[0].loc).toEqual(['body', 'seconds']);
    expect((await readClock(tenant.oat)).body.now).toBe('2028-03-01T00:00:00.000Z');
  });

  it('takes exactly one of `to` and `seconds`, and nothing else', async () => {
    for (const body of [
      {},
      { to: '2029-01-01T00:00:00Z', seconds: 1 },
      { seconds: 1, days: 2 },
      { seconds: 2 ** 31 },
    ]) {
      expect((await advance(alice.oat, body)).status).toBe(422);
    }
  });

  it('moves at most two years of 366 days at a time: 422 at body.seconds or body.to past it, stated in /openapi.json', async () => {
    const tenant = await createTenant(stack.sandbox);
    const tooManySeconds = await advance(tenant.oat, { seconds: 63_244_801 });
    expect(tooManySeconds.status).toBe(422);
    expect(tooManySeconds.body.detail).toEqual([
      {
        type: 'less_than_equal',
        loc: ['body', 'seconds'],
        msg: 'Input should be less than or equal to 63244800',
        input: 63_244_801,
        ctx: { le: 63_244_800 },
      },
    ]);
    // 2028-01-31T09:30Z + 732 days = 2030-02-01T09:30Z.
    const tooFar = await advance(tenant.oat, { to: '2030-02-01T09:30:00.001Z' });
    expect(tooFar.status).toBe(422);
    expect(tooFar.body.detail).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'to'],
        msg:
          'Value error, The clock moves at most 63244800 seconds (732 days) at a time: it reads ' +
          '2028-01-31T09:30:00.000Z, so `to` may be at most 2030-02-01T09:30:00.000Z.',
        input: '2030-02-01T09:30:00.001Z',
      },
    ]);
    expect((await readClock(tenant.oat)).body.now).toBe(START.toISOString());
    expect((await advance(tenant.oat, { to: '2030-02-01T09:30:00Z' })).body.now).toBe('2030-02-01T09:30:00.000Z');
    expect((await advance(tenant.oat, { seconds: 63_244_800 })).body.now).toBe('2032-02-03T09:30:00.000Z');

    const document = (await call(sandbox, 'GET', '/openapi.json')).body;
    const body = document.paths['/v1/sandbox/clock/advance'].post.requestBody.content['application/json'].schema;
    expect(body.properties.seconds).toMatchObject({ minimum: 0, maximum: 63_244_800 });
    expect(body.properties.seconds.description).toContain('at most 63244800 seconds');
    expect(body.properties.to.description).toContain('at most 63244800 seconds');
  });

  it('two advances at once run one after the other: neither is lost', async () => {
    const tenant = await createTenant(stack.sandbox);
    const answers = await Promise.all([advance(tenant.oat, { seconds: 3600 }), advance(tenant.oat, { seconds: 3600 })]);
    expect(answers.map(a => a.body.now).sort()).toEqual(['2028-01-31T10:30:00.000Z', '2028-01-31T11:30:00.000Z']);
    expect((await readClock(tenant.oat)).body.now).toBe('2028-01-31T11:30:00.000Z');
  });

  it("a user's token names the organization in the body; another organization is 404", async () => {
    const tenant = await createTenant(stack.sandbox);
    const missing = await advance(tenant.pat, { seconds: 1 });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'organization_id'] });
    const named = await advance(tenant.pat, { seconds: 3600, organization_id: tenant.organizationId });
    expect([named.status, named.body.now]).toEqual([200, '2028-01-31T10:30:00.000Z']);
    const foreign = await advance(tenant.pat, { seconds: 3600, organization_id: alice.organizationId });
    expect([foreign.status, foreign.body.error]).toEqual([404, 'ResourceNotFound']);
    const foreignByOrganizationToken = await advance(bob.oat, { seconds: 1, organization_id: alice.organizationId });
    expect(foreignByOrganizationToken.status).toBe(404);
    expect((await readClock(alice.oat)).body.now).toBe(START.toISOString());
  });

  it('needs subscriptions:write; subscriptions:read may only read', async () => {
    const readOnly = await stack.sandbox.admin.createOrganizationAccessToken(alice.organizationId, [
      'subscriptions:read',
    ]);
    expect((await readClock(readOnly)).status).toBe(200);
    const res = await advance(readOnly, { seconds: 1 });
    expect([res.status, res.body.error]).toEqual([403, 'insufficient_scope']);
    const none = await stack.sandbox.admin.createOrganizationAccessToken(alice.organizationId, ['products:read']);
    expect((await readClock(none)).status).toBe(403);
  });
});

describe('due work runs boundary by boundary before the advance answers', () => {
  it("each instant in order, stamped with its own time, while the organization's clock reads it", async () => {
    const tenant = await createTenant(stack.sandbox);
    const billing = stack.sandbox.environment.billing;
    // A stand-in for the recurring engine: work due at three instants (given out of order).
    const due = ['2028-03-31T09:30:00.000Z', '2028-02-29T09:30:00.000Z', '2028-06-01T00:00:00.000Z'];
    const ran: { at: string; clockReads: string; stampedWith: string }[] = [];
    // Taken out at the end: the clocks are the worker's shared stack's, which later files advance.
    const unregister = billing.services.clocks.register({
      name: 'test-boundaries',
      async nextDueAt(organizationId, upTo) {
        if (organizationId !== tenant.organizationId) return null;
        const pending = due
          .filter(d => !ran.some(r => r.at === d) && new Date(d) <= upTo)
          .sort()
          .map(d => new Date(d));
        return pending[0] ?? null;
      },
      async runDue(work: DueWork) {
        const clock = await billing.services.clocks.clockFor(billing.orm.em.fork(), work.organizationId);
        ran.push({
          at: work.at.toISOString(),
          clockReads: clock.now().toISOString(),
          stampedWith: work.clock.now().toISOString(),
        });
      },
    });

    try {
      const res = await advance(tenant.oat, { to: '2028-04-30T09:30:00Z' });
      expect(res.body.now).toBe('2028-04-30T09:30:00.000Z');
      expect(ran).toEqual([
        {
          at: '2028-02-29T09:30:00.000Z',
          clockReads: '2028-02-29T09:30:00.000Z',
          stampedWith: '2028-02-29T09:30:00.000Z',
        },
        {
          at: '2028-03-31T09:30:00.000Z',
          clockReads: '2028-03-31T09:30:00.000Z',
          stampedWith: '2028-03-31T09:30:00.000Z',
        },
      ]);

      await advance(tenant.oat, { seconds: 86_400 * 60 });
      expect(ran.map(r => r.at)).toEqual([...due].sort());
    } finally {
      unregister();
    }
  });
});

describe("an organization's objects take their time from its clock", () => {
  it('a subscription created after an advance starts then; a cancel is stamped then; other organizations are untouched', async () => {
    const tenant = await createTenant(stack.sandbox);
    const product = await call(sandbox, 'POST', '/v1/products/', {
      token: tenant.oat,
      body: {
        name: 'Free plan',
        recurring_interval: 'month',
        recurring_interval_count: 1,
        prices: [{ amount_type: 'free' }],
      },
    });
    expect(product.status).toBe(201);
    const customer = await call(sandbox, 'POST', '/v1/customers/', {
      token: tenant.oat,
      body: { email: `clock-${tenant.organizationId}@example.com` },
    });
    await advance(tenant.oat, { to: '2028-03-31T12:00:00Z' });

    const created = await call(sandbox, 'POST', '/v1/subscriptions/', {
      token: tenant.oat,
      body: { product_id: product.body.id, customer_id: customer.body.id },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      started_at: '2028-03-31T12:00:00.000Z',
      current_period_start: '2028-03-31T12:00:00.000Z',
      current_period_end: '2028-04-30T12:00:00.000Z',
    });

    await advance(tenant.oat, { seconds: 3600 });
    const canceled = await call(sandbox, 'PATCH', `/v1/subscriptions/${created.body.id}`, {
      token: tenant.oat,
      body: { cancel_at_period_end: true },
    });
    expect(canceled.status).toBe(200);
    expect(canceled.body.canceled_at).toBe('2028-03-31T13:00:00.000Z');
    expect((await readClock(alice.oat)).body.now).toBe(START.toISOString());
  });
});
