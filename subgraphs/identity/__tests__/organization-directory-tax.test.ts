import { systemClock } from '../../../kit/clock.js';
import { createTestDatabase } from '../../../test/support/database.js';
import { IdentityAdmin } from '../admin.js';
import { type IdentityRuntime, startIdentity } from '../runtime.js';

/** The directory profile billing reads carries the seller's tax settings, as plain JSON (docs/tax-settings.md). */
let identity: IdentityRuntime;
let drop: () => Promise<void>;
let admin: IdentityAdmin;
let userId: string;

beforeAll(async () => {
  const database = await createTestDatabase('identity_directory_tax');
  drop = database.drop;
  identity = await startIdentity({
    databaseUrl: database.url,
    secret: 'directory-tax-secret-0123456789abcdef',
    clock: systemClock,
  });
  admin = new IdentityAdmin(identity.orm, identity.services, systemClock, 'directory-tax-secret-0123456789abcdef');
  userId = (await admin.createUser('seller@example.com', 'password-seller')).id;
});
afterAll(async () => {
  await identity?.close();
  await drop?.();
});

describe('OrganizationProfile.tax', () => {
  it("carries the country, default behaviour and tax settings, the tax id's value only", async () => {
    const ctx = { em: identity.orm.em.fork(), clock: systemClock };
    const organization = await identity.services.organizations.createForUser(ctx, userId, {
      name: 'Seller GmbH',
      slug: 'seller-gmbh',
      country: 'DE',
      defaultTaxBehavior: 'exclusive',
      defaultPresentmentCurrency: 'EUR',
      taxSettings: {
        legalName: 'Seller GmbH',
        legalAddress: { line1: 'Hauptstr. 1', postalCode: '80331', city: 'München', country: 'DE' },
        taxId: 'DE123456789',
        registrations: [{ country: 'US', state: 'US-TX', rateBasisPoints: 625, displayName: 'TX Sales Tax' }],
        stripeTaxEnabled: true,
      },
    });
    const profile = await identity.organizations.profile(organization.id);
    // The currency its tax summary answers in by default.
    expect(profile?.defaultPresentmentCurrency).toBe('eur');
    expect(profile?.tax).toEqual({
      country: 'DE',
      defaultTaxBehavior: 'exclusive',
      legalName: 'Seller GmbH',
      legalAddress: {
        line1: 'Hauptstr. 1',
        line2: null,
        postal_code: '80331',
        city: 'München',
        state: null,
        country: 'DE',
      },
      taxId: 'DE123456789',
      registrations: [{ country: 'US', state: 'TX', rate_basis_points: 625, display_name: 'TX Sales Tax' }],
      stripeTaxEnabled: true,
    });
    // It crosses the signed RPC as JSON unchanged, and the slug lookup answers the same.
    expect(JSON.parse(JSON.stringify(profile))).toEqual(profile);
    expect((await identity.organizations.profileBySlug('seller-gmbh'))?.tax).toEqual(profile?.tax);
  });

  it('says an organization without a country collects nothing', async () => {
    const organization = await admin.createOrganization('seller@example.com', 'Plain Org', 'plain-org');
    expect((await identity.organizations.profile(organization.id))?.defaultPresentmentCurrency).toBe('usd');
    expect((await identity.organizations.profile(organization.id))?.tax).toEqual({
      country: null,
      defaultTaxBehavior: 'location',
      legalName: null,
      legalAddress: null,
      taxId: null,
      registrations: [],
      stripeTaxEnabled: false,
    });
  });
});
