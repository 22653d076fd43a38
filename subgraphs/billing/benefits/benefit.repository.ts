import type { EntityManager } from '@mikro-orm/postgresql';
import { Benefit, ProductBenefit } from './benefit.entity.js';

/** What holds a product's benefits: a subscription, or a one-time order. */
export interface BenefitHolderRow {
  source: string;
  id: string;
}

/** Benefits and their links to products, for the writes of benefits.service and the grant engine. */
export class BenefitRepository {
  constructor(private readonly em: EntityManager) {}

  /** A live (not deleted) benefit of one of `organizationIds`. */
  findLive(id: string, organizationIds: string[]): Promise<Benefit | null> {
    return this.em.findOne(Benefit, { id, deletedAt: null, organizationId: { $in: organizationIds } });
  }

  /** The live benefits of one organization among `ids`. */
  findLiveOfOrganization(ids: string[], organizationId: string): Promise<Benefit[]> {
    return this.em.find(Benefit, { id: { $in: ids }, organizationId, deletedAt: null });
  }

  /** Any benefit by id, deleted ones included. */
  findById(id: string): Promise<Benefit | null> {
    return this.em.findOne(Benefit, { id });
  }

  findByIdOrFail(id: string): Promise<Benefit> {
    return this.em.findOneOrFail(Benefit, { id });
  }

  /** Benefits by id, deleted ones included. */
  findMany(ids: string[]): Promise<Benefit[]> {
    return this.em.find(Benefit, { id: { $in: ids } });
  }

  /** The product's benefit links, in the product's order. */
  linksOfProduct(productId: string): Promise<ProductBenefit[]> {
    return this.em.find(ProductBenefit, { productId }, { orderBy: { position: 'asc' } });
  }

  /** Takes the benefit off every product. */
  unlinkFromEveryProduct(benefitId: string): Promise<number> {
    return this.em.nativeDelete(ProductBenefit, { benefitId });
  }

  /** Takes every benefit off the product. */
  unlinkEveryBenefitOf(productId: string): Promise<number> {
    return this.em.nativeDelete(ProductBenefit, { productId });
  }

  /**
   * What holds the product's benefits: its subscriptions that hold benefits (active, trialing, past due)
   * and its paid one-time orders (refunded ones included: a refund revokes only when asked to).
   */
  holdersOfProduct(productId: string, organizationId: string): Promise<BenefitHolderRow[]> {
    return this.em.execute<BenefitHolderRow[]>(
      `select 'subscription' as source, s.id from billing.subscriptions s where s.product_id = ? and s.organization_id = ?
           and s.status in ('active', 'trialing', 'past_due')
         union all
         select 'order', o.id from billing.orders o where o.product_id = ? and o.organization_id = ?
           and o.subscription_id is null and o.status in ('paid', 'partially_refunded', 'refunded')`,
      [productId, organizationId, productId, organizationId],
    );
  }
}
