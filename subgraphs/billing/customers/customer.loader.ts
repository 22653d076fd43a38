import DataLoader from 'dataloader';
import type { BillingContext } from '../context.js';
import type { Customer } from './customer.entity.js';
import { customerRead } from './customer.read.js';
import { CustomerType } from './customer.type.js';

const loaders = new WeakMap<BillingContext, DataLoader<string, CustomerType | null>>();

/**
 * One query per batch of customer ids, per request, scoped to the caller's organizations (deleted
 * customers included, for embedding). Used by `_entities` and by types that embed a customer
 * (subscriptions, orders): `customerLoader(ctx).load(subscription.customerId)`.
 */
export function customerLoader(ctx: BillingContext): DataLoader<string, CustomerType | null> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async ids => {
      // The read path, deleted customers included (an embedded customer keeps showing them).
      const rows = await customerRead.byIds(ctx.em, ctx.principal, ids, { includeHidden: true });
      const byId = new Map(rows.map(row => [(row.r as Customer).id, CustomerType.fromEntity(row.r as Customer)]));
      return ids.map(id => byId.get(id) ?? null);
    });
    loaders.set(ctx, loader);
  }
  return loader;
}
