// Compatibility of subscriptions:update and subscriptions:revoke with the official Speakeasy SDK
// `@polar-sh/sdk` 0.48.1, which zod-validates every response and maps the documented error statuses to
// typed classes (402 PaymentFailed, 403 AlreadyCanceledSubscription, 404 ResourceNotFound,
// 409 SubscriptionLocked, 422 HTTPValidationError). A validation error fails the test loudly.
import type { Polar } from '@polar-sh/sdk';
import { AlreadyCanceledSubscription } from '@polar-sh/sdk/models/errors/alreadycanceledsubscription.js';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { PaymentFailed } from '@polar-sh/sdk/models/errors/paymentfailed.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { SubscriptionLocked } from '@polar-sh/sdk/models/errors/subscriptionlocked.js';
import pg from 'pg';
import { failure, ok, polarClient } from '../support/sdk.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { createTenant, type RunningEnvironment, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

let stack: TestStack;
let env: RunningEnvironment;
let alice: Tenant;
let bob: Tenant;
let fixtures: BillingFixtures;
let customerId: string;
let free: Awaited<ReturnType<BillingFixtures['product']>>;
let freeB: Awaited<ReturnType<BillingFixtures['product']>>;
let paid: Awaited<ReturnType<BillingFixtures['product']>>;
let polar: Polar;

beforeAll(async () => {
  stack = await sharedTestStack();
  env = stack.production;
  alice = await createTenant(env);
  bob = await createTenant(env);
  fixtures = new BillingFixtures(env);
  customerId = (await fixtures.customer(alice.organizationId)).id;
  free = await fixtures.product(alice.organizationId, { name: 'Free', amount: 0 });
  freeB = await fixtures.product(alice.organizationId, { name: 'Free B', amount: 0 });
  paid = await fixtures.product(alice.organizationId, { name: 'Paid', amount: 2000 });
  polar = polarClient(env, alice.oat);
});

const subscription = () =>
  fixtures.subscription({
    organizationId: alice.organizationId,
    customerId,
    productId: free.product.id,
    priceIds: [free.price.id],
  });

describe('@polar-sh/sdk 0.48.1 subscriptions.update / revoke', () => {
  it('cancels at period end, refuses a second cancel with AlreadyCanceledSubscription, uncancels', async () => {
    const s = await subscription();
    const canceled = await ok(
      polar.subscriptions.update({
        id: s.id,
        subscriptionUpdate: {
          cancelAtPeriodEnd: true,
          customerCancellationReason: 'too_expensive',
          customerCancellationComment: 'hmm',
        },
      }),
    );
    expect(canceled).toMatchObject({
      id: s.id,
      cancelAtPeriodEnd: true,
      customerCancellationReason: 'too_expensive',
      status: 'active',
    });
    expect(canceled.endsAt).toBeInstanceOf(Date);
    const again = await failure(
      polar.subscriptions.update({ id: s.id, subscriptionUpdate: { cancelAtPeriodEnd: true } }),
      AlreadyCanceledSubscription,
    );
    expect(again.detail).toBe('This subscription is already canceled or will be at the end of the period.');
    const uncanceled = await ok(
      polar.subscriptions.update({ id: s.id, subscriptionUpdate: { cancelAtPeriodEnd: false } }),
    );
    expect(uncanceled.cancelAtPeriodEnd).toBe(false);
  });

  it('changes product (free → free) and schedules / clears a next-period change', async () => {
    const s = await subscription();
    const changed = await ok(
      polar.subscriptions.update({
        id: s.id,
        subscriptionUpdate: { productId: freeB.product.id, prorationBehavior: 'invoice' },
      }),
    );
    expect(changed.productId).toBe(freeB.product.id);
    expect(changed.product.name).toBe('Free B');
    const scheduled = await ok(
      polar.subscriptions.update({
        id: s.id,
        subscriptionUpdate: { productId: free.product.id, prorationBehavior: 'next_period' },
      }),
    );
    expect(scheduled.pendingUpdate).toMatchObject({ productId: free.product.id });
    const cleared = await ok(polar.subscriptions.update({ id: s.id, subscriptionUpdate: { pendingUpdate: null } }));
    expect(cleared.pendingUpdate).toBeNull();
  });

  it('a paid change maps to PaymentFailed (402)', async () => {
    const s = await subscription();
    const error = await failure(
      polar.subscriptions.update({
        id: s.id,
        subscriptionUpdate: { productId: paid.product.id, prorationBehavior: 'invoice' },
      }),
      PaymentFailed,
    );
    expect(error.detail).toBe('Payment failed with reason: missing_payment_method.');
  });

  it('revokes, then AlreadyCanceledSubscription; unknown and foreign ids are ResourceNotFound', async () => {
    const s = await subscription();
    const revoked = await ok(polar.subscriptions.revoke({ id: s.id }));
    expect(revoked).toMatchObject({ id: s.id, status: 'canceled' });
    expect(revoked.endedAt).toBeInstanceOf(Date);
    await failure(polar.subscriptions.revoke({ id: s.id }), AlreadyCanceledSubscription);
    await failure(
      polar.subscriptions.update({ id: s.id, subscriptionUpdate: { revoke: true } }),
      AlreadyCanceledSubscription,
    );
    await failure(polar.subscriptions.revoke({ id: '00000000-0000-4000-8000-000000000000' }), ResourceNotFound);
    const other = polarClient(env, bob.oat);
    await failure(other.subscriptions.revoke({ id: (await subscription()).id }), ResourceNotFound);
  });

  it('maps 409 to SubscriptionLocked while another update holds the lock', async () => {
    const s = await subscription();
    const client = new pg.Client({ connectionString: env.environment.billing.orm.config.get('clientUrl') });
    await client.connect();
    try {
      await client.query('begin');
      await client.query("select pg_advisory_xact_lock(hashtextextended('subscription:' || $1::text, 0))", [s.id]);
      const locked = await failure(
        polar.subscriptions.update({ id: s.id, subscriptionUpdate: { cancelAtPeriodEnd: true } }),
        SubscriptionLocked,
      );
      expect(locked.detail).toBe('This subscription is pending an update.');
      await failure(polar.subscriptions.revoke({ id: s.id }), SubscriptionLocked);
    } finally {
      await client.query('rollback');
      await client.end();
    }
  });

  it('a body the server refuses maps to HTTPValidationError (422)', async () => {
    const s = await subscription();
    await failure(
      polar.subscriptions.update({
        id: s.id,
        subscriptionUpdate: { productId: '00000000-0000-4000-8000-000000000000' },
      }),
      HTTPValidationError,
    );
  });
});
