import DataLoader from 'dataloader';
import type { BillingContext } from '../context.js';
import { CustomerRepository } from './customer.repository.js';
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
      const rows = await new CustomerRepository(ctx.em).findReadableMany(ctx.principal, ids);
      const byId = new Map(rows.map(c => [c.id, CustomerType.fromEntity(c)]));
      return ids.map(id => byId.get(id) ?? null);
    });
    loaders.set(ctx, loader);
  }
  return loader;
}
