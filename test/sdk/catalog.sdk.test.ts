// Compatibility of /v1/products/ and /v1/discounts/ with the Speakeasy SDK `@polar-sh/sdk` 0.48.1, which
// zod-validates every response (missing keys, non-ISO datetimes, wrong literals fail). Any
// SDKValidationError / ResponseValidationError fails the test with the SDK's own explanation.
import type { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { explain, failure, ok, startSdkStack } from '../support/sdk.js';
import type { Tenant } from '../support/stack.js';

let owner: Tenant;
let asOrganization: Polar;
let asUser: Polar;
let asOther: Polar;

beforeAll(async () => {
  ({ owner, asOrganization, asUser, asOther } = await startSdkStack());
});

describe('products through the SDK', () => {
  it('creates, gets, lists and updates every price kind', async () => {
    const recurring = await ok(
      asOrganization.products.create({
        name: 'SDK monthly',
        recurringInterval: 'month',
        metadata: { plan: 'pro', rank: 2 },
        prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
      }),
    );
    expect(recurring).toMatchObject({
      name: 'SDK monthly',
      isRecurring: true,
      recurringInterval: 'month',
      metadata: { plan: 'pro', rank: 2 },
    });
    expect(recurring.createdAt).toBeInstanceOf(Date);
    expect(recurring.prices[0]).toMatchObject({ amountType: 'fixed', priceAmount: 1500 });

    const custom = await ok(
      asUser.products.create({
        organizationId: owner.organizationId,
        name: 'SDK donation',
        recurringInterval: null,
        prices: [{ amountType: 'custom', minimumAmount: 100, maximumAmount: 5000, presetAmount: 500 }],
      }),
    );
    expect(custom.prices[0]).toMatchObject({
      amountType: 'custom',
      minimumAmount: 100,
      maximumAmount: 5000,
      presetAmount: 500,
    });

    const free = await ok(
      asOrganization.products.create({ name: 'SDK free', recurringInterval: 'year', prices: [{ amountType: 'free' }] }),
    );
    // Polar has no `free` price type any more: a free price reads as a fixed price of 0 (docs/polar/resources.md).
    expect(free.prices[0]).toMatchObject({ amountType: 'fixed', priceAmount: 0 });

    const seats = await ok(
      asOrganization.products.create({
        name: 'SDK seats',
        recurringInterval: 'month',
        trialInterval: 'week',
        trialIntervalCount: 2,
        prices: [
          { amountType: 'seat_based', seatTiers: { tiers: [{ minSeats: 1, maxSeats: null, pricePerSeat: 900 }] } },
        ],
      }),
    );
    expect(seats).toMatchObject({ trialInterval: 'week', trialIntervalCount: 2 });
    expect(seats.prices[0]).toMatchObject({
      amountType: 'seat_based',
      seatTiers: { minimumSeats: 1, maximumSeats: null },
    });

    expect(await ok(asOrganization.products.get({ id: recurring.id }))).toMatchObject({
      id: recurring.id,
      name: 'SDK monthly',
    });

    const updated = await ok(
      asOrganization.products.update({
        id: recurring.id,
        productUpdate: {
          name: 'SDK monthly 2',
          prices: [{ id: recurring.prices[0]!.id }, { amountType: 'fixed', priceAmount: 1400, priceCurrency: 'eur' }],
        },
      }),
    );
    expect(updated.name).toBe('SDK monthly 2');
    expect(updated.prices).toHaveLength(2);

    const archived = await ok(asOrganization.products.update({ id: free.id, productUpdate: { isArchived: true } }));
    expect(archived.isArchived).toBe(true);

    const pages = await ok(asOrganization.products.list({ limit: 2, sorting: ['name'] }));
    const names: string[] = [];
    try {
      for await (const page of pages) names.push(...page.result.items.map(p => p.name));
    } catch (error) {
      explain(error);
    }
    expect(names).toEqual(['SDK donation', 'SDK free', 'SDK monthly 2', 'SDK seats']);
    const recurringOnly = await ok(asOrganization.products.list({ isRecurring: true, isArchived: false }));
    expect(recurringOnly.result.items.map(p => p.name).sort()).toEqual(['SDK monthly 2', 'SDK seats']);
  });

  it('maps errors to the SDK classes', async () => {
    const product = await ok(
      asOrganization.products.create({ name: 'Private', prices: [{ amountType: 'fixed', priceAmount: 1 }] }),
    );
    await failure(asOther.products.get({ id: product.id }), ResourceNotFound);
    const invalid = await failure(
      asOrganization.products.create({ name: 'no', prices: [{ amountType: 'fixed', priceAmount: 1 }] }),
      HTTPValidationError,
    );
    expect(invalid.detail?.[0]?.loc).toEqual(['body', 'name']);
  });
});

describe('discounts through the SDK', () => {
  it('creates the four kinds, lists, updates and deletes', async () => {
    const product = await ok(
      asOrganization.products.create({
        name: 'For discounts',
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount: 3000 }],
      }),
    );
    const fixedOnce = await ok(
      asOrganization.discounts.create({
        name: 'Five off',
        type: 'fixed',
        duration: 'once',
        amount: 500,
        currency: 'usd',
        code: 'FIVEOFF',
        products: [product.id],
      }),
    );
    expect(fixedOnce).toMatchObject({ type: 'fixed', duration: 'once', amount: 500, code: 'FIVEOFF' });
    expect((fixedOnce as { products: { id: string }[] }).products.map(p => p.id)).toEqual([product.id]);
    const fixedRepeat = await ok(
      asOrganization.discounts.create({
        name: 'Three months',
        type: 'fixed',
        duration: 'repeating',
        durationInMonths: 3,
        amount: 100,
      }),
    );
    expect(fixedRepeat).toMatchObject({ duration: 'repeating', durationInMonths: 3 });
    const pctForever = await ok(
      asUser.discounts.create({
        organizationId: owner.organizationId,
        name: 'Quarter',
        type: 'percentage',
        duration: 'forever',
        basisPoints: 2500,
      }),
    );
    expect(pctForever).toMatchObject({ basisPoints: 2500 });
    const pctRepeat = await ok(
      asOrganization.discounts.create({
        name: 'Half a year',
        type: 'percentage',
        duration: 'repeating',
        durationInMonths: 6,
        basisPoints: 1000,
        startsAt: new Date('2030-01-01T00:00:00Z'),
        endsAt: new Date('2030-06-01T00:00:00Z'),
        maxRedemptions: 5,
        metadata: { source: 'sdk' },
      }),
    );
    expect(pctRepeat.startsAt).toEqual(new Date('2030-01-01T00:00:00Z'));

    const list = await ok(asOrganization.discounts.list({ limit: 10 }));
    expect(list.result.items).toHaveLength(4);
    expect(list.result.pagination).toEqual({ totalCount: 4, maxPage: 1 });
    expect((await ok(asOrganization.discounts.get({ id: fixedOnce.id }))).id).toBe(fixedOnce.id);

    const updated = await ok(
      asOrganization.discounts.update({ id: pctForever.id, discountUpdate: { name: 'Third', basisPoints: 3333 } }),
    );
    expect(updated).toMatchObject({ name: 'Third', basisPoints: 3333 });

    await ok(asOrganization.discounts.delete({ id: fixedRepeat.id }));
    await failure(asOrganization.discounts.get({ id: fixedRepeat.id }), ResourceNotFound);
    await failure(asOther.discounts.get({ id: fixedOnce.id }), ResourceNotFound);
    await failure(
      asOrganization.discounts.create({ name: 'Dup', type: 'fixed', duration: 'once', amount: 1, code: 'fiveoff' }),
      HTTPValidationError,
    );
  });
});
