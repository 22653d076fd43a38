import DataLoader from 'dataloader';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { readerOf, type RequestContext } from '../../../kit/request-context.js';
import type { BillingContext } from '../context.js';
import { productReferenced } from './product.read.js';
import { PRODUCT_IS_DELETABLE, ProductType } from './product.type.js';

/** Per request, one loader: every product of an answer that needs `isDeletable` costs one statement together. */
const loaders = new WeakMap<RequestContext, DataLoader<string, boolean>>();

/**
 * `Product.isDeletable` where a read did not say it (docs/products.md#deleting-a-product). The product
 * lists and gets compute it in their statement, and a product embedded in an order or a subscription is
 * referenced by that very row (false); products embedded elsewhere (checkouts, checkout links, discounts,
 * whose REST shapes have no `is_deletable`) leave it unset, and it is read here only when a query selects
 * it, for all of them in one statement.
 */
@Resolver(() => ProductType)
export class ProductDeletableResolver {
  @FieldResolver(() => Boolean, { description: PRODUCT_IS_DELETABLE })
  isDeletable(@Root() product: ProductType, @Ctx() ctx: BillingContext): boolean | Promise<boolean> {
    if (product.isDeletable !== undefined) return product.isDeletable;
    let loader = loaders.get(ctx);
    if (!loader) {
      loader = new DataLoader(async ids => {
        const rows = await readerOf(ctx).execute<{ id: string; referenced: boolean }[]>(
          `select p.id, ${productReferenced('p')} as referenced from billing.products p where p.id in (?)`,
          [[...ids]],
        );
        const referenced = new Map(rows.map(row => [row.id, row.referenced]));
        return ids.map(id => referenced.get(id) === false);
      });
      loaders.set(ctx, loader);
    }
    return loader.load(product.id);
  }
}
