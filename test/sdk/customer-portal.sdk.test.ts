// Compatibility of the Customer Portal endpoints with the official Speakeasy SDK `@polar-sh/sdk`
// 0.48.1 and a customer session token (`polar_cst_`): customers.get and subscriptions list, get,
// update (cancel at period end / uncancel) and cancel. The SDK zod-validates every response; its
// CustomerSubscription embeds `product.organization` (CustomerOrganization), resolved by identity for
// the customer's own organization. Any SDKValidationError / ResponseValidationError fails with the
// SDK's own explanation.
import { Polar } from '@polar-sh/sdk';
import type { PolarError } from '@polar-sh/sdk/models/errors/polarerror.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { ResponseValidationError } from '@polar-sh/sdk/models/errors/responsevalidationerror.js';
import { SDKValidationError } from '@polar-sh/sdk/models/errors/sdkvalidationerror.js';
import type { CustomerSubscription } from '@polar-sh/sdk/models/components/customersubscription.js';
import { SubscriptionStatus } from '../../subgraphs/billing/shared/enums.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

let stack: TestStack;
let owner: Tenant;
let portal: Polar;
let customerSession: string;
let otherSession: string;
let customerId: string;
let productId: string;
let active: string;
let ended: string;
let theirs: string;

const sdk = (accessToken?: string) =>
  new Polar({ ...(accessToken ? { accessToken } : {}), serverURL: stack.production.baseUrl });

function explain(error: unknown): never {
  if (error instanceof ResponseValidationError) {
    throw new Error(
      `SDK rejected the response (ResponseValidationError):\n${error.pretty()}\nraw: ${JSON.stringify(error.rawValue, null, 2)}`,
    );
  }
  if (error instanceof SDKValidationError) {
    throw new Error(
      `SDK validation failed (SDKValidationError):\n${error.pretty()}\nraw: ${JSON.stringify(error.rawValue, null, 2)}`,
    );
  }
  throw error;
}

async function ok<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    return explain(error);
  }
}

async function failure<E extends PolarError>(
  promise: Promise<unknown>,
  type: abstract new (...args: any[]) => E,
): Promise<E> {
  let result: unknown;
  try {
    result = await promise;
  } catch (error) {
    if (error instanceof type) return error;
    if (error instanceof ResponseValidationError || error instanceof SDKValidationError) explain(error);
    throw new Error(`expected ${type.name}, got ${(error as Error)?.name}: ${(error as Error)?.message}`);
  }
  throw new Error(`expected ${type.name}, got a result: ${JSON.stringify(result)}`);
}

beforeAll(async () => {
  stack = await sharedTestStack();
  owner = await createTenant(stack.production);
  const fx = new BillingFixtures(stack.production);
  const plan = await fx.product(owner.organizationId, { name: 'Portal SDK plan', amount: 900 });
  productId = plan.product.id;
  const customer = await fx.customer(owner.organizationId, { email: 'portal-sdk@example.com', name: 'Portal Person' });
  customerId = customer.id;
  const other = await fx.customer(owner.organizationId);
  const base = { organizationId: owner.organizationId, productId, priceIds: [plan.price.id], amount: 900 };
  active = (await fx.subscription({ ...base, customerId, startedAt: new Date(Date.now() - 60_000) })).id;
  ended = (
    await fx.subscription({
      ...base,
      customerId,
      status: SubscriptionStatus.CANCELED,
      startedAt: new Date('2026-01-01T00:00:00Z'),
      canceledAt: new Date('2026-01-10T00:00:00Z'),
      endsAt: new Date('2026-01-10T00:00:00Z'),
      endedAt: new Date('2026-01-10T00:00:00Z'),
    })
  ).id;
  theirs = (await fx.subscription({ ...base, customerId: other.id })).id;
  const asOrganization = sdk(owner.oat);
  const session = await ok(asOrganization.customerSessions.create({ customerId }));
  expect(session.token).toMatch(/^polar_cst_/);
  customerSession = session.token;
  otherSession = (await ok(asOrganization.customerSessions.create({ customerId: other.id }))).token;
  portal = sdk();
});

function expectOrganization(subscription: CustomerSubscription): void {
  expect(subscription.product.organizationId).toBe(owner.organizationId);
  expect(subscription.product.organization).toMatchObject({
    id: owner.organizationId,
    name: expect.any(String),
    slug: expect.any(String),
    allowCustomerUpdates: expect.any(Boolean),
    customerPortalSettings: {
      usage: { show: expect.any(Boolean) },
      subscription: { updateSeats: expect.any(Boolean), updatePlan: expect.any(Boolean) },
    },
  });
  expect(subscription.product.organization.createdAt).toBeInstanceOf(Date);
}

describe('@polar-sh/sdk customer portal with a customer session', () => {
  it('customerPortal.customers.get', async () => {
    const me = await ok(portal.customerPortal.customers.get({ customerSession }));
    expect(me).toMatchObject({ id: customerId, email: 'portal-sdk@example.com', name: 'Portal Person' });
  });

  it("customerPortal.subscriptions.list: only the customer's own, parsed as CustomerSubscription", async () => {
    const pages = await ok(portal.customerPortal.subscriptions.list({ customerSession }, {}));
    const items = pages.result.items;
    expect(items.map(s => s.id)).toEqual(expect.arrayContaining([active, ended]));
    expect(items.map(s => s.id)).not.toContain(theirs);
    for (const s of items) {
      expect(s.customerId).toBe(customerId);
      expectOrganization(s);
    }
    const onlyActive = await ok(
      portal.customerPortal.subscriptions.list({ customerSession }, { active: true, productId }),
    );
    expect(onlyActive.result.items.map(s => s.id)).toEqual([active]);
  });

  it("customerPortal.subscriptions.get, and 404 for another customer's subscription", async () => {
    const s = await ok(portal.customerPortal.subscriptions.get({ customerSession }, { id: active }));
    expect(s).toMatchObject({ id: active, status: 'active', productId, cancelAtPeriodEnd: false });
    expect(s.product.prices.length).toBeGreaterThan(0);
    expectOrganization(s);
    await failure(portal.customerPortal.subscriptions.get({ customerSession }, { id: theirs }), ResourceNotFound);
    await failure(
      portal.customerPortal.subscriptions.get({ customerSession: otherSession }, { id: active }),
      ResourceNotFound,
    );
  });

  it('customerPortal.subscriptions.update: cancel at period end, then uncancel', async () => {
    const canceled = await ok(
      portal.customerPortal.subscriptions.update(
        { customerSession },
        { id: active, customerSubscriptionUpdate: { cancelAtPeriodEnd: true } },
      ),
    );
    expect(canceled).toMatchObject({ id: active, status: 'active', cancelAtPeriodEnd: true });
    expect(canceled.canceledAt).toBeInstanceOf(Date);
    expectOrganization(canceled);
    const resumed = await ok(
      portal.customerPortal.subscriptions.update(
        { customerSession },
        { id: active, customerSubscriptionUpdate: { cancelAtPeriodEnd: false } },
      ),
    );
    expect(resumed).toMatchObject({ id: active, status: 'active', cancelAtPeriodEnd: false, canceledAt: null });
    expectOrganization(resumed);
  });

  it('customerPortal.subscriptions.cancel', async () => {
    const s = await ok(portal.customerPortal.subscriptions.cancel({ customerSession }, { id: active }));
    expect(s).toMatchObject({ id: active, cancelAtPeriodEnd: true });
    expectOrganization(s);
    await failure(portal.customerPortal.subscriptions.cancel({ customerSession }, { id: theirs }), ResourceNotFound);
  });
});
