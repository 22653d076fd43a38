import DataLoader from 'dataloader';
import type { BillingContext } from '../context.js';
import type { ProductPrice } from './product-price.entity.js';
import { ProductRepository } from './product.repository.js';
import { ProductType } from './product.type.js';

export interface ProductLoaders {
  /** A readable product with its live prices, as the public type (null when absent or another tenant's). */
  product: DataLoader<string, ProductType | null>;
  /** The live prices of a product, oldest first. */
  prices: DataLoader<string, ProductPrice[]>;
  /** Any price by id, archived ones included (subscriptions keep the prices they were sold at). */
  price: DataLoader<string, ProductPrice | null>;
}

const loaders = new WeakMap<BillingContext, ProductLoaders>();

/**
 * Per-request batched loaders for embedding products and prices in other billing types (a
 * Subscription's `product` and `prices`): one query per batch, scoped to the principal.
 */
export function productLoaders(ctx: BillingContext): ProductLoaders {
  let found = loaders.get(ctx);
  if (found) return found;
  const repository = () => new ProductRepository(ctx.em);
  const prices = new DataLoader<string, ProductPrice[]>(async productIds => {
    const byProduct = await repository().pricesOf(productIds);
    return productIds.map(id => byProduct.get(id) ?? []);
  });
  found = {
    prices,
    product: new DataLoader<string, ProductType | null>(async ids => {
      const products = await repository().findReadableMany(ctx.principal, ids);
      const livePrices = await prices.loadMany(products.map(p => p.id));
      const byId = new Map(products.map((p, i) => [p.id, ProductType.fromEntity(p, livePrices[i] instanceof Error ? [] : (livePrices[i] as ProductPrice[]))]));
      return ids.map(id => byId.get(id) ?? null);
    }),
    price: new DataLoader<string, ProductPrice | null>(async ids => {
      const rows = await repository().findPricesByIds(ids);
      const byId = new Map(rows.map(p => [p.id, p]));
      return ids.map(id => byId.get(id) ?? null);
    }),
  };
  loaders.set(ctx, found);
  return found;
}
