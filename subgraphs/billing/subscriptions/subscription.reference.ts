import DataLoader from 'dataloader';
import type { BillingContext } from '../context.js';
import { subscriptionRead } from './subscription.read.js';
import { BillingSubscriptionType } from './subscription.type.js';

const loaders = new WeakMap<BillingContext, DataLoader<string, BillingSubscriptionType | null>>();

/** One query per batch of ids, scoped to the caller's organizations: `_entities` never leaks a tenant's row. */
export function subscriptionLoader(ctx: BillingContext): DataLoader<string, BillingSubscriptionType | null> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async ids => {
      // Through the read path with the core API's readers: one statement per batch, embeds included.
      const rows = await subscriptionRead.byIds(ctx.em, ctx.principal, ids);
      const byId = new Map(rows.map(row => [(row.r as { id: string }).id, BillingSubscriptionType.fromRow(row)]));
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
