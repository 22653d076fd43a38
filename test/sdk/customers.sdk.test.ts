// Compatibility of customers, customer sessions and the customer portal's `customers/me` with the
// official Speakeasy SDK `@polar-sh/sdk` 0.48.1, which zod-validates every response. Any
// SDKValidationError / ResponseValidationError fails the test with the SDK's own explanation.
import { randomUUID } from 'node:crypto';
import type { Polar } from '@polar-sh/sdk';
import { HTTPValidationError } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { SDKError } from '@polar-sh/sdk/models/errors/sdkerror.js';
import type { Customer } from '@polar-sh/sdk/models/components/customer.js';
import { failure, ok, startSdkStack } from '../support/sdk.js';
import type { Tenant } from '../support/stack.js';

let owner: Tenant;
let asOrganization: Polar;
let asUser: Polar;
let asOther: Polar;
let sdk: (accessToken?: string) => Polar;

beforeAll(async () => {
  ({ owner, asOrganization, asUser, asOther, sdk } = await startSdkStack());
});

describe('customers with @polar-sh/sdk 0.48.1', () => {
  let individual: Customer;
  let team: Customer;
  const externalId = `sdk-${randomUUID()}`;

  it('creates individual and team customers', async () => {
    individual = await ok(
      asOrganization.customers.create({
        email: `sdk-${randomUUID()}@example.com`,
        name: 'SDK Individual',
        externalId,
        metadata: { plan: 'pro', seats: 2, vip: true },
        billingAddress: { line1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' },
        taxId: 'FR61954506077',
      }),
    );
    expect(individual).toMatchObject({
      type: 'individual',
      name: 'SDK Individual',
      externalId,
      metadata: { plan: 'pro', seats: 2, vip: true },
    });
    expect(individual.createdAt).toBeInstanceOf(Date);
    expect(individual.taxId).toEqual(['FR61954506077', 'eu_vat']);
    expect(individual.billingAddress).toMatchObject({ country: 'FR', postalCode: '75001' });

    team = await ok(asUser.customers.create({ type: 'team', name: 'SDK Team', organizationId: owner.organizationId }));
    expect(team).toMatchObject({ type: 'team', name: 'SDK Team', organizationId: owner.organizationId });
  });

  it('reports a duplicate e-mail as HTTPValidationError', async () => {
    const error = await failure(asOrganization.customers.create({ email: individual.email! }), HTTPValidationError);
    expect(error.detail?.[0]?.msg).toBe('A customer with this email address already exists.');
  });

  it('lists with filters and pages', async () => {
    const page = await ok(asOrganization.customers.list({ query: 'SDK', sorting: ['name'] }));
    expect(page.result.items.map(c => c.name)).toEqual(['SDK Individual', 'SDK Team']);
    expect(page.result.pagination).toEqual({ totalCount: 2, maxPage: 1 });
    const byMetadata = await ok(asOrganization.customers.list({ metadata: { plan: 'pro' } }));
    expect(byMetadata.result.items.map(c => c.id)).toEqual([individual.id]);
    const byEmail = await ok(
      asOrganization.customers.list({ email: individual.email!, organizationId: owner.organizationId }),
    );
    expect(byEmail.result.items.map(c => c.id)).toEqual([individual.id]);
  });

  it('gets and updates by id and by external id', async () => {
    expect((await ok(asOrganization.customers.get({ id: individual.id }))).id).toBe(individual.id);
    const updated = await ok(
      asOrganization.customers.update({
        id: team.id,
        customerUpdate: { name: 'SDK Team Renamed', metadata: { tier: 'gold' } },
      }),
    );
    expect(updated).toMatchObject({ name: 'SDK Team Renamed', metadata: { tier: 'gold' } });
    expect(updated.modifiedAt).toBeInstanceOf(Date);

    expect((await ok(asOrganization.customers.getExternal({ externalId }))).id).toBe(individual.id);
    const byExternal = await ok(
      asOrganization.customers.updateExternal({ externalId, customerUpdateExternalID: { locale: 'fr' } }),
    );
    expect(byExternal).toMatchObject({ id: individual.id, locale: 'fr' });

    const immutable = await failure(
      asOrganization.customers.update({ id: individual.id, customerUpdate: { externalId: 'changed' } }),
      HTTPValidationError,
    );
    expect(immutable.detail?.[0]?.msg).toBe('Customer external ID cannot be updated.');
  });

  it('another organization gets ResourceNotFound', async () => {
    await failure(asOther.customers.get({ id: individual.id }), ResourceNotFound);
    await failure(asOther.customers.getExternal({ externalId }), ResourceNotFound);
    await failure(asOther.customers.delete({ id: individual.id }), ResourceNotFound);
  });

  it('creates a customer session and reads the portal with its token', async () => {
    const session = await ok(
      asOrganization.customerSessions.create({ customerId: individual.id, returnUrl: 'https://shop.example/' }),
    );
    expect(session.token).toMatch(/^polar_cst_/);
    expect(session.customerId).toBe(individual.id);
    expect(session.customer.id).toBe(individual.id);
    expect(session.expiresAt).toBeInstanceOf(Date);
    expect(session.customerPortalUrl).toContain(session.token);

    const byExternal = await ok(asOrganization.customerSessions.create({ externalCustomerId: externalId }));
    expect(byExternal.customerId).toBe(individual.id);

    const me = await ok(sdk().customerPortal.customers.get({ customerSession: session.token }));
    expect(me).toMatchObject({
      id: individual.id,
      email: individual.email,
      name: 'SDK Individual',
      type: 'individual',
      oauthAccounts: {},
    });

    // The customer token is no Core API credential.
    const core = await failure(sdk(session.token).customers.list({}), SDKError);
    expect(core.statusCode).toBe(401);

    const unknown = await failure(
      asOrganization.customerSessions.create({ customerId: randomUUID() }),
      HTTPValidationError,
    );
    expect(unknown.detail?.[0]?.msg).toBe('Customer does not exist.');
  });

  it('deletes by id and by external id', async () => {
    await ok(asOrganization.customers.delete({ id: team.id }));
    await failure(asOrganization.customers.get({ id: team.id }), ResourceNotFound);
    await ok(asOrganization.customers.deleteExternal({ externalId }));
    await failure(asOrganization.customers.getExternal({ externalId }), ResourceNotFound);
  });
});
