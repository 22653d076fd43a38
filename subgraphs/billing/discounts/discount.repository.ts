import { type EntityManager, type FilterQuery, raw } from '@mikro-orm/postgresql';
import { CORE_READERS, tenantScope } from '../../../kit/database/tenant-scope.js';
import type { Principal } from '../../../kit/principal.js';
import { Discount } from './discount.entity.js';

export interface DiscountFilters {
  organizationIds?: string[] | null;
  query?: string | null;
}

/** Every read of discounts: live ones (not deleted) of the principal's organizations only. */
export class DiscountRepository {
  constructor(private readonly em: EntityManager) {}

  /** The tenant rule (tenant-scope.ts): Core API readers only, their organizations' live discounts. */
  readableFilter(principal: Principal): FilterQuery<Discount> {
    const scope = tenantScope(principal, CORE_READERS);
    return scope ? { organizationId: { $in: [...scope.organizationIds] }, deletedAt: null } : ({ id: null } as never);
  }

  /** Any discount by id, deleted ones included (a subscription keeps showing the discount it got). */
  findManyIncludingDeleted(principal: Principal, ids: readonly string[]): Promise<Discount[]> {
    const scope = tenantScope(principal, CORE_READERS);
    if (!scope) return Promise.resolve([]);
    return this.em.find(Discount, { organizationId: { $in: [...scope.organizationIds] }, id: { $in: [...ids] } });
  }

  /** A live discount of the organization with this code, compared case-insensitively. */
  findByCode(organizationId: string, code: string): Promise<Discount | null> {
    return this.em.findOne(Discount, {
      organizationId,
      deletedAt: null,
      [raw(alias => `lower(${alias}.code) = lower(?)`, [code])]: [],
    } as FilterQuery<Discount>);
  }

  /** Any discount by id. */
  findById(id: string): Promise<Discount | null> {
    return this.em.findOne(Discount, { id });
  }

  /** A live discount of the organization by id. */
  findLiveOfOrganization(id: string, organizationId: string): Promise<Discount | null> {
    return this.em.findOne(Discount, { id, organizationId, deletedAt: null });
  }

  /** The id of the organization's live discount with this code (case-insensitive), as a checkout looks it up. */
  async idByCode(organizationId: string, code: string): Promise<string | null> {
    const found = await this.em.execute<{ id: string }[]>(
      'select id from billing.discounts where organization_id = ? and lower(code) = lower(?) and deleted_at is null',
      [organizationId, code],
    );
    return found[0]?.id ?? null;
  }

  /** The discount's redemption limit and count, row-locked until the transaction ends. */
  async lockRedemptions(
    id: string,
  ): Promise<{ max_redemptions: number | null; redemptions_count: number } | undefined> {
    const [discount] = await this.em.execute<{ max_redemptions: number | null; redemptions_count: number }[]>(
      'select max_redemptions, redemptions_count from billing.discounts where id = ? for update',
      [id],
    );
    return discount;
  }

  /** The discount this checkout holds a redemption of, if any. */
  async redemptionOf(checkoutId: string): Promise<{ discount_id: string } | undefined> {
    const [held] = await this.em.execute<{ discount_id: string }[]>(
      'select discount_id from billing.discount_redemptions where checkout_id = ?',
      [checkoutId],
    );
    return held;
  }

  /** One redemption of the discount, reserved for the checkout, and the discount's count taken up by one. */
  async redeem(discountId: string, checkoutId: string, now: Date): Promise<void> {
    await this.em.execute(
      'insert into billing.discount_redemptions (checkout_id, discount_id, created_at) values (?, ?, ?)',
      [checkoutId, discountId, now],
    );
    await this.em.execute('update billing.discounts set redemptions_count = redemptions_count + 1 where id = ?', [
      discountId,
    ]);
  }

  /** Deletes the checkouts' redemptions and gives each discount its count back, in one statement. */
  async releaseRedemptions(checkoutIds: readonly string[]): Promise<void> {
    await this.em.execute(
      `with gone as (delete from billing.discount_redemptions where checkout_id in (?) returning discount_id)
     update billing.discounts d set redemptions_count = d.redemptions_count - g.n
       from (select discount_id, count(*)::int as n from gone group by discount_id) g where d.id = g.discount_id`,
      [[...checkoutIds]],
    );
  }

  /**
   * Counts one redemption of the discount (a subscription change takes one), if it is below its limit: an atomic
   * conditional increment, so two concurrent redemptions cannot both take the last one. False: the limit
   * is reached.
   */
  async redeemBelowLimit(discountId: string): Promise<boolean> {
    const updated = await this.em.execute<{ id: string }[]>(
      'update billing.discounts set redemptions_count = redemptions_count + 1 where id = ? and (max_redemptions is null or redemptions_count < max_redemptions) returning id',
      [discountId],
    );
    return updated.length > 0;
  }
}
