import DataLoader from 'dataloader';
import type { BillingContext } from '../context.js';
import { Discount } from '../discounts/discount.entity.js';
import type { ProductPrice } from '../products/product-price.entity.js';
import type { Product } from '../products/product.entity.js';
import { ProductRepository } from '../products/product.repository.js';
import { ProductPriceType, ProductType } from '../products/product.type.js';
import { readableOrganizationIds } from './subscription.repository.js';

/**
 * Per-request loaders for what a subscription embeds. Each batches the ids one execution pass asks
 * for into one query, scoped to the caller's organizations, so a page of 100 subscriptions with their
 * product, prices and discount costs the same number of queries as a page of one. (The customer comes
 * from customers/customer.loader.ts.)
 */
export interface SubscriptionLoaders {
  /** Products with their current (non-archived) prices. */
  products: DataLoader<string, ProductType | null>;
  /** Prices by id, archived ones included (a subscription keeps billing the price it started on). */
  prices: DataLoader<string, ProductPriceType | null>;
  discounts: DataLoader<string, Discount | null>;
}

const cache = new WeakMap<BillingContext, SubscriptionLoaders>();

export function subscriptionLoaders(ctx: BillingContext): SubscriptionLoaders {
  let loaders = cache.get(ctx);
  if (loaders) return loaders;
  const products = new ProductRepository(ctx.em);
  loaders = {
    products: new DataLoader(async ids => {
      const rows = await products.findReadableMany(ctx.principal, ids);
      const prices = await products.pricesOf(rows.map(p => p.id));
      const byId = new Map(rows.map(p => [p.id, ProductType.fromEntity(p, prices.get(p.id) ?? [])]));
      return ids.map(id => byId.get(id) ?? null);
    }),
    prices: new DataLoader(async ids => {
      const rows: ProductPrice[] = await products.findPricesByIds(ids);
      // A price is readable when its product is. The products come from the product loader, whose
      // batch for the same page is usually under way already (no extra query).
      const owners = await loaders!.products.loadMany([...new Set(rows.map(p => p.productId))]);
      const readable = new Map(
        owners.filter((p): p is ProductType => !!p && !(p instanceof Error)).map(p => [p.id, p]),
      );
      const byId = new Map(
        rows
          .filter(p => readable.has(p.productId))
          .map(p => [
            p.id,
            ProductPriceType.fromEntity(p, readable.get(p.productId)! as Pick<Product, 'recurringInterval'>),
          ]),
      );
      return ids.map(id => byId.get(id) ?? null);
    }),
    discounts: new DataLoader(async ids => {
      const scope = readableOrganizationIds(ctx.principal);
      const rows = scope.length
        ? await ctx.em.find(Discount, { id: { $in: [...ids] }, organizationId: { $in: scope } })
        : [];
      const byId = new Map(rows.map(d => [d.id, d]));
      return ids.map(id => byId.get(id) ?? null);
    }),
  };
  cache.set(ctx, loaders);
  return loaders;
}
