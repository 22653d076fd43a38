// The customer portal's benefit grants through the official Speakeasy SDK `@polar-sh/sdk` 0.48.1 and a
// customer session token: customerPortal.benefitGrants.list / get / update. The SDK zod-validates every
// response as its CustomerBenefitGrant union (the benefit as Benefit<Type>Subscriber with the seller's
// BenefitSubscriberOrganization, the customer as CustomerPortalCustomer) and maps 403/404/422 to classes.
import type { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { NotPermitted } from '@polar-sh/sdk/models/errors/notpermitted.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { settleJobs } from '../support/sql-statements.js';
import { failure, ok, startSdkStack } from '../support/sdk.js';
import { call, type Tenant, type TestStack } from '../support/stack.js';

let stack: TestStack;
let owner: Tenant;
let asOrganization: Polar;
let sdk: (accessToken?: string) => Polar;

beforeAll(async () => {
  ({ stack, owner, asOrganization, sdk } = await startSdkStack());
}, 120_000);

const settle = () => settleJobs(stack.production.environment.billing);

describe('customerPortal.benefitGrants through the SDK', () => {
  it('lists, gets and updates the customer’s own grants; refuses others’ and revoked ones', async () => {
    const note = await ok(
      asOrganization.benefits.create({ type: 'custom', description: 'Welcome note', properties: { note: 'Hi' } }),
    );
    const keys = await ok(
      asOrganization.benefits.create({
        type: 'license_keys',
        description: 'App license',
        properties: { prefix: 'APP' },
      }),
    );
    const discord = await ok(
      asOrganization.benefits.create({
        type: 'discord',
        description: 'Discord role',
        properties: { guildToken: 'token', roleId: '42', kickMember: false },
      }),
    );
    const product = await ok(
      asOrganization.products.create({
        name: 'Free plan',
        recurringInterval: 'month',
        prices: [{ amountType: 'free' }],
      } as never),
    );
    await ok(
      asOrganization.products.updateBenefits({
        id: product.id,
        productBenefitsUpdate: { benefits: [note.id, keys.id, discord.id] },
      }),
    );
    const subscribe = async (email: string) => {
      const customer = await ok(asOrganization.customers.create({ email }));
      const created = await call(stack.production.baseUrl, 'POST', '/v1/subscriptions/', {
        token: owner.oat,
        body: { product_id: product.id, customer_id: customer.id },
      });
      expect(created.status).toBe(201);
      const session = await ok(asOrganization.customerSessions.create({ customerId: customer.id }));
      return { customerId: customer.id, subscriptionId: created.body.id as string, customerSession: session.token };
    };
    const mine = await subscribe('grants-sdk@example.com');
    const theirs = await subscribe('grants-sdk-other@example.com');
    await settle();

    const portal = sdk();
    const page = await ok(portal.customerPortal.benefitGrants.list({ customerSession: mine.customerSession }, {}));
    expect(page.result.pagination).toEqual({ totalCount: 3, maxPage: 1 });
    expect(page.result.items.map(g => g.benefitId)).toEqual([note.id, keys.id, discord.id]);
    for (const grant of page.result.items) {
      expect(grant).toMatchObject({ customerId: mine.customerId, subscriptionId: mine.subscriptionId });
      expect(grant.customer).toMatchObject({ id: mine.customerId, email: 'grants-sdk@example.com' });
      expect(grant.benefit.organization).toMatchObject({ id: owner.organizationId, slug: owner.slug });
      expect(grant.createdAt).toBeInstanceOf(Date);
    }
    const [noteGrant, keyGrant, discordGrant] = page.result.items;
    expect(noteGrant).toMatchObject({ isGranted: true, properties: {}, benefit: { properties: { note: 'Hi' } } });
    expect(keyGrant.isGranted).toBe(true);
    expect(keyGrant.properties).toMatchObject({
      licenseKeyId: expect.any(String),
      displayKey: expect.stringMatching(/^\*\*\*\*-/),
    });
    expect(discordGrant).toMatchObject({ isGranted: false, error: { type: 'IntegrationNotConfigured' } });

    const onlyKeys = await ok(
      portal.customerPortal.benefitGrants.list(
        { customerSession: mine.customerSession },
        { typeFilter: 'license_keys' },
      ),
    );
    expect(onlyKeys.result.items.map(g => g.id)).toEqual([keyGrant.id]);
    const byMember = await ok(
      portal.customerPortal.benefitGrants.list(
        { customerSession: mine.customerSession },
        { memberId: '00000000-0000-4000-8000-000000000000' },
      ),
    );
    expect(byMember.result.items).toEqual([]);

    const got = await ok(
      portal.customerPortal.benefitGrants.get({ customerSession: mine.customerSession }, { id: keyGrant.id }),
    );
    expect(got.id).toBe(keyGrant.id);
    await failure(
      portal.customerPortal.benefitGrants.get({ customerSession: theirs.customerSession }, { id: keyGrant.id }),
      ResourceNotFound,
    );

    const updated = await ok(
      portal.customerPortal.benefitGrants.update(
        { customerSession: mine.customerSession },
        {
          id: discordGrant.id,
          customerBenefitGrantUpdate: { benefitType: 'discord', properties: { accountId: '1234567890' } },
        },
      ),
    );
    expect(updated).toMatchObject({ id: discordGrant.id, error: null, properties: { accountId: '1234567890' } });
    // The grant's job ran: without a Discord bot token the grant says so again, the account kept.
    await settle();
    const after = await ok(
      portal.customerPortal.benefitGrants.get({ customerSession: mine.customerSession }, { id: discordGrant.id }),
    );
    expect(after).toMatchObject({ isGranted: false, error: { type: 'IntegrationNotConfigured' } });
    expect(after.properties).toMatchObject({ accountId: '1234567890' });

    const mismatch = await failure(
      portal.customerPortal.benefitGrants.update(
        { customerSession: mine.customerSession },
        { id: keyGrant.id, customerBenefitGrantUpdate: { benefitType: 'custom' } },
      ),
      HTTPValidationError,
    );
    expect(mismatch.detail?.[0]?.loc).toEqual(['body', 'benefit_type']);
    const unchanged = await ok(
      portal.customerPortal.benefitGrants.update(
        { customerSession: mine.customerSession },
        { id: keyGrant.id, customerBenefitGrantUpdate: { benefitType: 'license_keys' } },
      ),
    );
    expect(unchanged.properties).toEqual(keyGrant.properties);

    // Revoked with the subscription: no longer listed, and an update is NotPermitted.
    await ok(asOrganization.subscriptions.revoke({ id: mine.subscriptionId }));
    await settle();
    const empty = await ok(portal.customerPortal.benefitGrants.list({ customerSession: mine.customerSession }, {}));
    expect(empty.result.items).toEqual([]);
    await failure(
      portal.customerPortal.benefitGrants.update(
        { customerSession: mine.customerSession },
        { id: keyGrant.id, customerBenefitGrantUpdate: { benefitType: 'license_keys' } },
      ),
      NotPermitted,
    );
  });
});
