// Compatibility of the subscription list, create, get and export endpoints with the official
// Speakeasy SDK `@polar-sh/sdk` 0.48.1, which zod-validates every response (the Subscription model
// includes the embedded customer, product, discount and prices, and the deprecated price/user fields).
// Any SDKValidationError / ResponseValidationError fails the test with the SDK's own explanation.
import type { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import type { Subscription } from '@polar-sh/sdk/models/components/subscription.js';
import { randomUUID } from 'node:crypto';
import { CustomerCancellationReason, SubscriptionStatus } from '../../subgraphs/billing/shared/enums.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { explain, failure, ok, startSdkStack } from '../support/sdk.js';
import type { Tenant, TestStack } from '../support/stack.js';

let stack: TestStack;
let owner: Tenant;
let asOrganization: Polar;
let asUser: Polar;
let asOther: Polar;
let freeProduct: string;
let paidProduct: string;
let customerId: string;
let discountId: string;
const seeded: string[] = [];

beforeAll(async () => {
  ({ stack, owner, asOrganization, asUser, asOther } = await startSdkStack());
  const fx = new BillingFixtures(stack.production);
  freeProduct = (await fx.product(owner.organizationId, { name: 'Free tier', amount: 0 })).product.id;
  const paid = await fx.product(owner.organizationId, { name: 'Pro tier', amount: 1900 });
  paidProduct = paid.product.id;
  const customer = await fx.customer(owner.organizationId, {
    email: 'sdk@example.com',
    externalId: 'sdk-ext',
    name: 'Sdk Person',
  });
  customerId = customer.id;
  discountId = (await fx.discount(owner.organizationId, 'SDK ten')).id;
  // Rows in other states: canceled with a reason, cancel-at-period-end, discounted, trialing.
  const base = {
    organizationId: owner.organizationId,
    customerId,
    productId: paid.product.id,
    priceIds: [paid.price.id],
    amount: 1900,
  };
  seeded.push(
    (
      await fx.subscription({
        ...base,
        status: SubscriptionStatus.CANCELED,
        canceledAt: new Date('2026-01-10T00:00:00Z'),
        endedAt: new Date('2026-01-10T00:00:00Z'),
        reason: CustomerCancellationReason.TOO_EXPENSIVE,
        startedAt: new Date('2026-01-01T00:00:00Z'),
      })
    ).id,
  );
  seeded.push(
    (
      await fx.subscription({
        ...base,
        cancelAtPeriodEnd: true,
        canceledAt: new Date('2026-01-20T00:00:00Z'),
        endsAt: new Date('2026-02-01T00:00:00Z'),
        reason: CustomerCancellationReason.UNUSED,
        startedAt: new Date('2026-01-02T00:00:00Z'),
        metadata: { team: 'red' },
      })
    ).id,
  );
  seeded.push(
    (
      await fx.subscription({
        ...base,
        discountId,
        startedAt: new Date('2026-01-03T00:00:00Z'),
        metadata: { team: 'blue' },
      })
    ).id,
  );
  seeded.push(
    (
      await fx.subscription({
        ...base,
        status: SubscriptionStatus.TRIALING,
        startedAt: new Date('2026-01-04T00:00:00Z'),
      })
    ).id,
  );
});

describe('subscriptions with @polar-sh/sdk 0.48.1', () => {
  let created: Subscription;

  it('creates a free subscription by customer id and by external customer id', async () => {
    created = await ok(
      asOrganization.subscriptions.create({ productId: freeProduct, customerId, metadata: { source: 'sdk' } }),
    );
    expect(created).toMatchObject({
      status: 'active',
      productId: freeProduct,
      customerId,
      amount: 0,
      metadata: { source: 'sdk' },
    });
    expect(created.startedAt).toBeInstanceOf(Date);
    expect(created.customer.id).toBe(customerId);
    expect(created.product.id).toBe(freeProduct);
    expect(created.prices).toHaveLength(1);
    const external = await ok(asUser.subscriptions.create({ productId: freeProduct, externalCustomerId: 'sdk-ext' }));
    expect(external.customerId).toBe(customerId);
  });

  it('maps refusals to HTTPValidationError', async () => {
    const paid = await failure(
      asOrganization.subscriptions.create({ productId: paidProduct, customerId }),
      HTTPValidationError,
    );
    expect(JSON.stringify(paid.detail)).toContain('Product is not free');
    const unknown = await failure(
      asOrganization.subscriptions.create({ productId: freeProduct, customerId: randomUUID() }),
      HTTPValidationError,
    );
    expect(JSON.stringify(unknown.detail)).toContain('Customer does not exist.');
  });

  it('gets a subscription; another tenant gets ResourceNotFound', async () => {
    const got = await ok(asOrganization.subscriptions.get({ id: created.id }));
    expect(got.id).toBe(created.id);
    await failure(asOther.subscriptions.get({ id: created.id }), ResourceNotFound);
    await failure(asOrganization.subscriptions.get({ id: randomUUID() }), ResourceNotFound);
  });

  it('lists with filters, sorting and pagination, every page validating', async () => {
    const all = await ok(asOrganization.subscriptions.list({ limit: 100 }));
    expect(all.result.pagination.totalCount).toBe(6);
    for (const id of seeded) expect(all.result.items.map(s => s.id)).toContain(id);
    const canceled = all.result.items.find(s => s.id === seeded[0])!;
    expect(canceled).toMatchObject({ status: 'canceled', customerCancellationReason: 'too_expensive' });
    const discounted = all.result.items.find(s => s.id === seeded[2])!;
    expect(discounted.discount?.id).toBe(discountId);

    const filtered = await ok(
      asOrganization.subscriptions.list({
        organizationId: owner.organizationId,
        productId: [paidProduct],
        customerId,
        externalCustomerId: 'sdk-ext',
        cancelAtPeriodEnd: true,
        customerCancellationReason: ['unused', 'too_expensive'],
        canceledAtAfter: new Date('2026-01-20T00:00:00Z'),
        canceledAtBefore: new Date('2026-01-20T00:00:00Z'),
        metadata: { team: ['red', 'green'] },
        sorting: ['-amount', 'started_at'],
      }),
    );
    expect(filtered.result.items.map(s => s.id)).toEqual([seeded[1]]);
    expect((await ok(asOrganization.subscriptions.list({ active: false }))).result.items.map(s => s.id)).toEqual([
      seeded[0],
    ]);
    expect((await ok(asOrganization.subscriptions.list({ discountId }))).result.items.map(s => s.id)).toEqual([
      seeded[2],
    ]);

    const pages: string[][] = [];
    const iterator = await ok(asOrganization.subscriptions.list({ limit: 4, sorting: ['started_at'] }));
    try {
      for await (const page of iterator) pages.push(page.result.items.map(s => s.id));
    } catch (error) {
      explain(error);
    }
    expect(pages.map(p => p.length)).toEqual([4, 2]);
    expect(pages[0].slice(0, 4)).toEqual(seeded);
    expect((await ok(asOther.subscriptions.list({}))).result.items).toEqual([]);
  });

  it('exports CSV', async () => {
    const csv = await ok(asOrganization.subscriptions.export({ organizationId: owner.organizationId }));
    expect(typeof csv).toBe('string');
    const lines = (csv as string).trim().split('\r\n');
    expect(lines[0].startsWith('id,status,')).toBe(true);
    expect(lines).toHaveLength(7);
  });
});
