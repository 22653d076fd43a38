import DataLoader from 'dataloader';
import { NotPermitted } from '../../../kit/errors.js';
import { customerView, restrictedView } from '../../../kit/graphql/customer-view.js';
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
 * What a caller who may not read the organization sees of it when it reaches it by reference: Polar's
 * CheckoutOrganization, the public profile, embedded in a public checkout (billing's client endpoints,
 * by client secret) and in the public customer portal (`GET /v1/customer-portal/organizations/{slug}`),
 * which Polar answers with the portal settings too (they decide what every visitor's portal offers).
 */
const PUBLIC_PROFILE = {
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
 * Resolves `Organization` entities for other subgraphs with one query per batch (two when some are
 * not the caller's). An organization the caller may read comes as that caller reads it (a customer gets
 * CustomerOrganization's fields only); any other one only as its public profile, the same for every
 * caller, signed in or not. Billing hands out another tenant's reference only where the route is a
 * capability (a checkout by its client secret, a portal by its slug: the same answer whoever calls),
 * and there a token of another organization, a customer session or a web session must not make the
 * answer fail where an anonymous caller's succeeds. Nothing beyond the public profile is ever widened.
 */
function loaderFor(ctx: IdentityContext): DataLoader<string, OrganizationType | null> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async ids => {
      const { principal } = ctx;
      const repository = new OrganizationRepository(ctx.em);
      const readable = principal.subject === 'anonymous' ? [] : await repository.findReadableMany(principal, ids);
      const readableIds = new Set(readable.map(o => o.id));
      const others = ids.filter(id => !readableIds.has(id));
      const byId = new Map<string, OrganizationType>();
      for (const o of readable)
        byId.set(
          o.id,
          customerView(principal, OrganizationType, OrganizationType.fromEntity(o), CUSTOMER_ORGANIZATION),
        );
      for (const o of others.length ? await repository.findByIds(others) : [])
        byId.set(o.id, restrictedView(OrganizationType, OrganizationType.fromEntity(o), PUBLIC_PROFILE, notPublic));
      return ids.map(id => byId.get(id) ?? null);
    });
    loaders.set(ctx, loader);
  }
  return loader;
}

function notPublic(): NotPermitted {
  return new NotPermitted("Not part of the organization's public profile.");
}

export const organizationReference = {
  Organization: {
    __resolveReference: (reference: { id: string }, ctx: IdentityContext) => loaderFor(ctx).load(reference.id),
  },
};
