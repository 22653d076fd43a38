import DataLoader from 'dataloader';
import { customerView } from '../../../kit/graphql/customer-view.js';
import type { IdentityContext } from '../context.js';
import { OrganizationRepository } from './organization.repository.js';
import { OrganizationType } from './organization.type.js';

/**
 * What a customer session reads of its organization: Polar's CustomerOrganization, as the Customer
 * Portal embeds it (`product.organization`). Settings, feature flags, e-mail, members' data and the
 * rest answer 403 to a customer (kit/graphql/customer-view.ts).
 */
const CUSTOMER_ORGANIZATION = {
  visible: new Set([
    'id',
    'createdAt',
    'modifiedAt',
    'name',
    'slug',
    'avatarUrl',
    'prorationBehavior',
    'allowCustomerUpdates',
    'customerPortalSettings',
  ]),
};

/**
 * What an anonymous caller reads of an organization it reaches by reference from a public checkout
 * (billing's client endpoints, by client secret): Polar's CheckoutOrganization, the public profile; and
 * from the public customer portal (`GET /v1/customer-portal/organizations/{slug}`), which Polar answers
 * with the portal settings too (they decide what every visitor's portal offers).
 */
const CHECKOUT_ORGANIZATION = {
  visible: new Set([
    'id',
    'createdAt',
    'modifiedAt',
    'name',
    'slug',
    'avatarUrl',
    'prorationBehavior',
    'allowCustomerUpdates',
    'customerPortalSettings',
  ]),
};

const loaders = new WeakMap<IdentityContext, DataLoader<string, OrganizationType | null>>();

/**
 * Resolves `Organization` entities for other subgraphs with one query per batch, and only those the
 * caller may read: `_entities` never hands out another tenant's organization, and a reference never
 * widens what the caller sees (a customer gets CustomerOrganization's fields only).
 */
function loaderFor(ctx: IdentityContext): DataLoader<string, OrganizationType | null> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async ids => {
      const repository = new OrganizationRepository(ctx.em);
      // Anonymous callers reach an organization only by reference from a public checkout (billing's
      // client endpoints, by client secret), and see its public profile only (the view below).
      const rows =
        ctx.principal.subject === 'anonymous'
          ? await repository.findByIds(ids)
          : await repository.findReadableMany(ctx.principal, ids);
      const byId = new Map(
        rows.map(o => [
          o.id,
          customerView(
            ctx.principal,
            OrganizationType,
            OrganizationType.fromEntity(o),
            ctx.principal.subject === 'anonymous' ? CHECKOUT_ORGANIZATION : CUSTOMER_ORGANIZATION,
          ),
        ]),
      );
      return ids.map(id => byId.get(id) ?? null);
    });
    loaders.set(ctx, loader);
  }
  return loader;
}

export const organizationReference = {
  Organization: {
    __resolveReference: (reference: { id: string }, ctx: IdentityContext) => loaderFor(ctx).load(reference.id),
  },
};
