import DataLoader from 'dataloader';
import type { BillingContext } from '../context.js';
import { SubscriptionRepository } from './subscription.repository.js';
import { BillingSubscriptionType } from './subscription.type.js';

const loaders = new WeakMap<BillingContext, DataLoader<string, BillingSubscriptionType | null>>();

/** One query per batch of ids, scoped to the caller's organizations: `_entities` never leaks a tenant's row. */
export function subscriptionLoader(ctx: BillingContext): DataLoader<string, BillingSubscriptionType | null> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async ids => {
      const rows = await new SubscriptionRepository(ctx.em).findReadableMany(ctx.principal, ids);
      const byId = new Map(rows.map(s => [s.id, BillingSubscriptionType.fromEntity(s)]));
      return ids.map(id => byId.get(id) ?? null);
    });
    loaders.set(ctx, loader);
  }
  return loader;
}

export const subscriptionReference = {
  BillingSubscription: {
    __resolveReference: (reference: { id: string }, ctx: BillingContext) => subscriptionLoader(ctx).load(reference.id),
  },
};
