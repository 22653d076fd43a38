import type { EntityManager } from '@mikro-orm/postgresql';
import { Discount } from '../discounts/discount.entity.js';
import { CheckoutLink } from './checkout-link.entity.js';

/** Checkout links (live ones: not deleted), and the discount a link may carry. */
export class CheckoutLinkRepository {
  constructor(private readonly em: EntityManager) {}

  findLiveByClientSecret(clientSecret: string): Promise<CheckoutLink | null> {
    return this.em.findOne(CheckoutLink, { clientSecret, deletedAt: null });
  }

  /** A live discount of the organization, the one a link names. */
  findLiveDiscount(id: string, organizationId: string): Promise<Discount | null> {
    return this.em.findOne(Discount, { id, organizationId, deletedAt: null });
  }
}
