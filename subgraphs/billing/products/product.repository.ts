import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { CORE_READERS, tenantScope } from '../../../kit/database/tenant-scope.js';
import type { Principal } from '../../../kit/principal.js';
import { ProductPrice } from './product-price.entity.js';
import { Product } from './product.entity.js';
import { productReferenced } from './product.read.js';

export interface ProductFilters {
  ids?: string[] | null;
  organizationIds?: string[] | null;
  query?: string | null;
  isArchived?: boolean | null;
  isRecurring?: boolean | null;
  visibility?: string[] | null;
}

/**
 * Every read of products, scoped to the principal's organizations by the tenant rule:
 * another tenant's product is simply not found.
 */
export class ProductRepository {
  constructor(private readonly em: EntityManager) {}

  /** The tenant rule (tenant-scope.ts): Core API readers only, their organizations' live (not deleted) products. */
  readableFilter(principal: Principal): FilterQuery<Product> {
    const scope = tenantScope(principal, CORE_READERS);
    return scope ? { organizationId: { $in: [...scope.organizationIds] }, deletedAt: null } : ({ id: null } as never);
  }

  findReadable(principal: Principal, id: string): Promise<Product | null> {
    return this.em.findOne(Product, { $and: [this.readableFilter(principal), { id }] });
  }

  findReadableMany(principal: Principal, ids: readonly string[]): Promise<Product[]> {
    return this.em.find(Product, { $and: [this.readableFilter(principal), { id: { $in: [...ids] } }] });
  }

  /** Live products of one organization among `ids` (for discount restrictions and checkout links). */
  findInOrganization(organizationId: string, ids: readonly string[]): Promise<Product[]> {
    return this.em.find(Product, { organizationId, id: { $in: [...ids] }, deletedAt: null });
  }

  /** Products by id, whatever their organization (the caller's rows already name them). */
  findByIds(ids: readonly string[]): Promise<Product[]> {
    return this.em.find(Product, { id: { $in: [...ids] } });
  }

  /** The prices of many products in one query, oldest first; archived ones only when asked. */
  async pricesOf(
    productIds: readonly string[],
    options: { includeArchived?: boolean } = {},
  ): Promise<Map<string, ProductPrice[]>> {
    const byProduct = new Map<string, ProductPrice[]>(productIds.map(id => [id, []]));
    if (!productIds.length) return byProduct;
    const where: FilterQuery<ProductPrice> = { productId: { $in: [...productIds] } };
    if (!options.includeArchived) (where as Record<string, unknown>).isArchived = false;
    const prices = await this.em.find(ProductPrice, where, { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    for (const price of prices) byProduct.get(price.productId)?.push(price);
    return byProduct;
  }

  /** Whether `product` can be deleted, by the read path's rule (`productReferenced`). */
  async isDeletable(product: Pick<Product, 'id' | 'organizationId'>): Promise<boolean> {
    const [row] = await this.em.execute<{ referenced: boolean }[]>(
      `select ${productReferenced('p')} as referenced from (select ?::uuid as id, ?::uuid as organization_id) p`,
      [product.id, product.organizationId],
    );
    return !row?.referenced;
  }

  findPricesByIds(ids: readonly string[]): Promise<ProductPrice[]> {
    return ids.length ? this.em.find(ProductPrice, { id: { $in: [...ids] } }) : Promise.resolve([]);
  }
}
