import DataLoader from 'dataloader';
import type { IdentityContext } from '../context.js';
import { OrganizationRepository } from './organization.repository.js';
import { OrganizationType } from './organization.type.js';

const loaders = new WeakMap<IdentityContext, DataLoader<string, OrganizationType | null>>();

/**
 * Resolves `Organization` entities for other subgraphs with one query per batch, and only those the
 * caller may read: `_entities` never hands out another tenant's organization.
 */
function loaderFor(ctx: IdentityContext): DataLoader<string, OrganizationType | null> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async ids => {
      const rows = await new OrganizationRepository(ctx.em).findReadableMany(ctx.principal, ids);
      const byId = new Map(rows.map(o => [o.id, OrganizationType.fromEntity(o)]));
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
