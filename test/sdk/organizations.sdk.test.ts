// Compatibility of the organization and organization-access-token endpoints with the official
// Speakeasy SDK `@polar-sh/sdk` 0.48.1, which zod-validates every response and maps error statuses
// to typed classes. Any SDKValidationError / ResponseValidationError fails the test with the SDK's
// own explanation of what did not match.
import type { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { NotPermitted } from '@polar-sh/sdk/models/errors/notpermitted.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { SDKError } from '@polar-sh/sdk/models/errors/sdkerror.js';
import type { Organization } from '@polar-sh/sdk/models/components/organization.js';
import { ALL_SCOPES } from '../../kit/scopes.js';
import { MemberRole } from '../../subgraphs/identity/memberships/membership.entity.js';
import { explain, failure, ok, startSdkStack } from '../support/sdk.js';
import type { Tenant, TestStack } from '../support/stack.js';

let stack: TestStack;
let owner: Tenant;
let other: Tenant;
let asOwner: Polar;
let asOrganization: Polar;
let asOther: Polar;
let sdk: (accessToken?: string) => Polar;

async function listAll(
  client: Polar,
  request: Parameters<Polar['organizations']['listOrganizations']>[0],
): Promise<Organization[][]> {
  const pages: Organization[][] = [];
  const iterator = await ok(client.organizations.listOrganizations(request));
  try {
    for await (const page of iterator) pages.push(page.result.items);
  } catch (error) {
    explain(error);
  }
  return pages;
}

beforeAll(async () => {
  ({ stack, owner, other, sdk, asUser: asOwner, asOrganization } = await startSdkStack({ name: 'Acme Owner Org' }));
  asOther = sdk(other.pat);
});

describe('organizations with @polar-sh/sdk 0.48.1', () => {
  const created: Organization[] = [];

  it('lists the organizations of a user (PAT) and of an organization token (OAT)', async () => {
    const page = await ok(asOwner.organizations.listOrganizations({}));
    expect(page.result.items.map(o => o.id)).toEqual([owner.organizationId]);
    expect(page.result.pagination).toEqual({ totalCount: 1, maxPage: 1 });
    const organization = page.result.items[0];
    expect(organization.slug).toBe(owner.slug);
    expect(organization.createdAt).toBeInstanceOf(Date);
    expect(organization.subscriptionSettings.prorationBehavior).toBeDefined();
    expect(organization.capabilities.apiAccess).toBe(true);

    const byToken = await ok(asOrganization.organizations.listOrganizations({}));
    expect(byToken.result.items.map(o => o.id)).toEqual([owner.organizationId]);
  });

  it('creates organizations with a PAT (User subject), minimal and with every optional field', async () => {
    const minimal = await ok(asOwner.organizations.create({ name: 'Beta Org', slug: `beta-${owner.slug}` }));
    expect(minimal).toMatchObject({
      name: 'Beta Org',
      slug: `beta-${owner.slug}`,
      status: 'created',
      defaultPresentmentCurrency: 'usd',
      defaultTaxBehavior: 'location',
    });
    expect(minimal.modifiedAt).toBeNull();
    created.push(minimal);

    const full = await ok(
      asOwner.organizations.create({
        name: 'Gamma Org',
        slug: `gamma-${owner.slug}`,
        avatarUrl: 'https://example.com/avatar.png',
        legalEntity: { type: 'company', registeredName: 'Gamma GmbH' },
        email: 'billing@gamma.example.com',
        website: 'https://gamma.example.com',
        socials: [{ platform: 'github', url: 'https://github.com/gamma' }],
        details: {
          productDescription: 'Widgets',
          sellingCategories: ['software'],
          pricingModels: ['subscription'],
          switching: false,
        },
        country: 'DE',
        featureSettings: { seatBasedPricingEnabled: true, overviewMetrics: ['revenue'] },
        subscriptionSettings: {
          allowMultipleSubscriptions: true,
          prorationBehavior: 'invoice',
          benefitRevocationGracePeriod: 3,
          preventTrialAbuse: true,
          allowCustomerUpdates: false,
        },
        customerPortalSettings: { usage: { show: false }, subscription: { updateSeats: false, updatePlan: true } },
        defaultPresentmentCurrency: 'eur',
        defaultTaxBehavior: 'inclusive',
      }),
    );
    expect(full).toMatchObject({
      name: 'Gamma Org',
      avatarUrl: 'https://example.com/avatar.png',
      email: 'billing@gamma.example.com',
      website: 'https://gamma.example.com',
      socials: [{ platform: 'github', url: 'https://github.com/gamma' }],
      country: 'DE',
      prorationBehavior: 'invoice',
      allowCustomerUpdates: false,
      defaultPresentmentCurrency: 'eur',
      defaultTaxBehavior: 'inclusive',
    });
    expect(full.featureSettings).toMatchObject({ seatBasedPricingEnabled: true, overviewMetrics: ['revenue'] });
    expect(full.subscriptionSettings).toEqual({
      allowMultipleSubscriptions: true,
      prorationBehavior: 'invoice',
      benefitRevocationGracePeriod: 3,
      preventTrialAbuse: true,
      allowCustomerUpdates: false,
    });
    expect(full.customerPortalSettings.usage.show).toBe(false);
    expect(full.detailsSubmittedAt).toBeInstanceOf(Date);
    created.push(full);

    created.push(await ok(asOwner.organizations.create({ name: 'Delta Org', slug: `delta-${owner.slug}` })));
  });

  it('filters by slug, pages with page/limit and sorts', async () => {
    const bySlug = await ok(asOwner.organizations.listOrganizations({ slug: `gamma-${owner.slug}` }));
    expect(bySlug.result.items.map(o => o.name)).toEqual(['Gamma Org']);
    expect(bySlug.result.pagination).toEqual({ totalCount: 1, maxPage: 1 });

    const none = await ok(asOwner.organizations.listOrganizations({ slug: other.slug }));
    expect(none.result.items).toEqual([]);
    expect(none.result.pagination).toEqual({ totalCount: 0, maxPage: 0 });

    const second = await ok(asOwner.organizations.listOrganizations({ page: 2, limit: 3 }));
    expect(second.result.pagination).toEqual({ totalCount: 4, maxPage: 2 });
    expect(second.result.items).toHaveLength(1);

    // The SDK's page iterator follows `pagination.max_page`.
    const pages = await listAll(asOwner, { limit: 3, sorting: ['name'] });
    expect(pages.map(p => p.length)).toEqual([3, 1]);
    expect(pages.flat().map(o => o.name)).toEqual(['Acme Owner Org', 'Beta Org', 'Delta Org', 'Gamma Org']);

    const descending = await ok(asOwner.organizations.listOrganizations({ sorting: ['-name'] }));
    expect(descending.result.items.map(o => o.name)).toEqual(['Gamma Org', 'Delta Org', 'Beta Org', 'Acme Owner Org']);

    const byCreation = await ok(asOwner.organizations.listOrganizations({ sorting: ['-created_at', 'slug'] }));
    expect(byCreation.result.items[byCreation.result.items.length - 1].id).toBe(owner.organizationId);
  });

  it("gets an organization by id, and another tenant's id is ResourceNotFound", async () => {
    const organization = await ok(asOwner.organizations.get({ id: owner.organizationId }));
    expect(organization.id).toBe(owner.organizationId);
    const viaToken = await ok(asOrganization.organizations.get({ id: owner.organizationId }));
    expect(viaToken.id).toBe(owner.organizationId);

    const notFound = await failure(asOwner.organizations.get({ id: other.organizationId }), ResourceNotFound);
    expect(notFound.statusCode).toBe(404);
    expect(notFound.error).toBe('ResourceNotFound');
    await failure(asOrganization.organizations.get({ id: created[0].id }), ResourceNotFound);
    await failure(asOwner.organizations.get({ id: '5f3f3c52-6c1e-4f6e-9a49-2b7f3c9e0d11' }), ResourceNotFound);
  });

  it('updates with an empty body (no change) and with some fields', async () => {
    const before = await ok(asOwner.organizations.get({ id: owner.organizationId }));
    const unchanged = await ok(asOwner.organizations.update({ id: owner.organizationId, organizationUpdate: {} }));
    expect(unchanged).toEqual(before);

    const updated = await ok(
      asOwner.organizations.update({
        id: owner.organizationId,
        organizationUpdate: {
          name: 'Acme Renamed',
          email: 'hello@acme.example.com',
          website: 'https://acme.example.com',
          socials: [{ platform: 'x', url: 'https://x.com/acme' }],
          country: 'FR',
          defaultTaxBehavior: 'exclusive',
          customerEmailSettings: {
            orderConfirmation: false,
            subscriptionCancellation: true,
            subscriptionConfirmation: true,
            subscriptionCycled: true,
            subscriptionCycledAfterTrial: true,
            subscriptionPastDue: true,
            subscriptionRenewalReminder: false,
            subscriptionRevoked: true,
            subscriptionTrialConversionReminder: true,
            subscriptionUncanceled: true,
            subscriptionUpdated: false,
          },
          subscriptionSettings: {
            allowMultipleSubscriptions: false,
            prorationBehavior: 'next_period',
            benefitRevocationGracePeriod: 7,
            preventTrialAbuse: false,
            allowCustomerUpdates: true,
          },
          customerPortalSettings: { usage: { show: true }, subscription: { updateSeats: true, updatePlan: false } },
          // dispute_settings, embed_hosts and sso_enforced are not in the 0.48.1 model (the SDK drops them).
        },
      }),
    );
    expect(updated).toMatchObject({
      id: owner.organizationId,
      name: 'Acme Renamed',
      email: 'hello@acme.example.com',
      website: 'https://acme.example.com',
      socials: [{ platform: 'x', url: 'https://x.com/acme' }],
      country: 'FR',
      defaultTaxBehavior: 'exclusive',
      prorationBehavior: 'next_period',
    });
    expect(updated.customerPortalSettings.subscription).toMatchObject({ updateSeats: true, updatePlan: false });
    expect(updated.customerEmailSettings.orderConfirmation).toBe(false);
    expect(updated.customerEmailSettings.subscriptionUpdated).toBe(false);
    expect(updated.customerEmailSettings.subscriptionRenewalReminder).toBe(false);
    expect(updated.modifiedAt).toBeInstanceOf(Date);

    const viaToken = await ok(
      asOrganization.organizations.update({ id: owner.organizationId, organizationUpdate: { name: 'Acme By Token' } }),
    );
    expect(viaToken.name).toBe('Acme By Token');
  });

  it('maps a 422 to HTTPValidationError with detail items', async () => {
    const error = await failure(
      asOwner.organizations.create({ name: 'ab', slug: `short-${owner.slug}` }),
      HTTPValidationError,
    );
    expect(error.statusCode).toBe(422);
    expect(error.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'name'], type: 'string_too_short', msg: expect.any(String) }),
    ]);

    const onUpdate = await failure(
      asOwner.organizations.update({ id: owner.organizationId, organizationUpdate: { email: 'not-an-email' } }),
      HTTPValidationError,
    );
    expect(onUpdate.detail?.[0]?.loc).toEqual(['body', 'email']);

    const taken = await failure(asOwner.organizations.create({ name: 'Taken', slug: other.slug }), HTTPValidationError);
    expect(taken.detail?.[0]?.loc).toEqual(['body', 'slug']);
  });

  it('maps an update by a plain member to NotPermitted (403)', async () => {
    const email = `member-${owner.slug}@example.com`;
    const member = await stack.production.admin.createUser(email, 'correct horse battery');
    await stack.production.admin.addMember(owner.organizationId, email, MemberRole.MEMBER);
    const asMember = sdk(await stack.production.admin.createPersonalAccessToken(member.id, [...ALL_SCOPES]));

    // A member can read the organization…
    expect((await ok(asMember.organizations.get({ id: owner.organizationId }))).id).toBe(owner.organizationId);
    // …but not manage it.
    const error = await failure(
      asMember.organizations.update({ id: owner.organizationId, organizationUpdate: { name: 'Hijacked' } }),
      NotPermitted,
    );
    expect(error.statusCode).toBe(403);
    expect(error.error).toBe('NotPermitted');
    expect(error.detail).toMatch(/permission/);
    // And a stranger gets "not found", never "forbidden".
    await failure(
      asOther.organizations.update({ id: owner.organizationId, organizationUpdate: { name: 'Hijacked' } }),
      ResourceNotFound,
    );
  });

  it('rejects create with an organization token as an undeclared 401 (SDKError)', async () => {
    const error = await failure(
      asOrganization.organizations.create({ name: 'Nope Org', slug: `nope-${owner.slug}` }),
      SDKError,
    );
    expect(error.statusCode).toBe(401);
  });
});

describe('organization access tokens with @polar-sh/sdk 0.48.1', () => {
  it('creates, lists, updates and deletes a token, which then stops working', async () => {
    const created = await ok(
      asOwner.organizationAccessTokens.create({
        organizationId: owner.organizationId,
        comment: 'SDK test',
        expiresIn: 'P30D',
        scopes: ['organizations:read', 'products:read'],
      }),
    );
    expect(created.token).toMatch(/^polar_oat_/);
    expect(created.organizationAccessToken).toMatchObject({
      comment: 'SDK test',
      organizationId: owner.organizationId,
      scopes: ['organizations:read', 'products:read'],
      lastUsedAt: null,
    });
    expect(created.organizationAccessToken.expiresAt).toBeInstanceOf(Date);
    const id = created.organizationAccessToken.id;

    // The new token works with the SDK.
    const asNewToken = sdk(created.token);
    expect((await ok(asNewToken.organizations.get({ id: owner.organizationId }))).id).toBe(owner.organizationId);

    const listed = await ok(asOwner.organizationAccessTokens.list({ organizationId: owner.organizationId }));
    expect(listed.result.items.map(t => t.id)).toContain(id);
    expect(listed.result.pagination.totalCount).toBeGreaterThanOrEqual(2); // the tenant's own OAT and this one
    const paged = await ok(
      asOwner.organizationAccessTokens.list({ organizationId: owner.organizationId, page: 1, limit: 1 }),
    );
    expect(paged.result.items).toHaveLength(1);
    expect(paged.result.pagination.maxPage).toBe(paged.result.pagination.totalCount);

    const updated = await ok(
      asOwner.organizationAccessTokens.update({
        id,
        organizationAccessTokenUpdate: { comment: 'renamed', scopes: ['organizations:read'] },
      }),
    );
    expect(updated).toMatchObject({ id, comment: 'renamed', scopes: ['organizations:read'] });
    const unchanged = await ok(asOwner.organizationAccessTokens.update({ id, organizationAccessTokenUpdate: {} }));
    expect(unchanged).toMatchObject({ id, comment: 'renamed', scopes: ['organizations:read'] });

    await ok(asOwner.organizationAccessTokens.delete({ id }));
    const after = await ok(asOwner.organizationAccessTokens.list({ organizationId: owner.organizationId, limit: 100 }));
    expect(after.result.items.map(t => t.id)).not.toContain(id);
    const revoked = await failure(asNewToken.organizations.get({ id: owner.organizationId }), SDKError);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.body).toContain('invalid_token');
  });

  it("does not show another tenant's tokens", async () => {
    const mine = await ok(asOther.organizationAccessTokens.list({}));
    expect(mine.result.items.every(t => t.organizationId === other.organizationId)).toBe(true);
    const theirs = await ok(asOther.organizationAccessTokens.list({ organizationId: owner.organizationId }));
    expect(theirs.result.items).toEqual([]);
  });
});
