import { type EntityManager, type FilterQuery, raw } from '@mikro-orm/postgresql';
import type { Principal } from '../../../kit/principal.js';
import { containsPattern, findPage } from '../shared/repository.js';
import { Discount } from './discount.entity.js';

export interface DiscountFilters {
  organizationIds?: string[] | null;
  query?: string | null;
}

/** Every read of discounts: live ones (not deleted) of the principal's organizations only. */
export class DiscountRepository {
  constructor(private readonly em: EntityManager) {}

  readableFilter(principal: Principal): FilterQuery<Discount> {
    return { organizationId: { $in: principal.organizationIds }, deletedAt: null };
  }

  list(
    principal: Principal,
    filters: DiscountFilters,
    orderBy: Array<Record<string, 'asc' | 'desc'>>,
    window: { limit: number; offset: number },
  ): Promise<[Discount[], number]> {
    const and: FilterQuery<Discount>[] = [this.readableFilter(principal)];
    if (filters.organizationIds?.length) and.push({ organizationId: { $in: filters.organizationIds } });
    if (filters.query) {
      const pattern = containsPattern(filters.query);
      and.push({ $or: [{ name: { $ilike: pattern } }, { code: { $ilike: pattern } }] });
    }
    return findPage(this.em, Discount, { $and: and }, orderBy, window);
  }

  findReadable(principal: Principal, id: string): Promise<Discount | null> {
    return this.em.findOne(Discount, { $and: [this.readableFilter(principal), { id }] });
  }

  /** Any discount by id, deleted ones included (a subscription keeps showing the discount it got). */
  findManyIncludingDeleted(principal: Principal, ids: readonly string[]): Promise<Discount[]> {
    return this.em.find(Discount, { organizationId: { $in: principal.organizationIds }, id: { $in: [...ids] } });
  }

  /** A live discount of the organization with this code, compared case-insensitively. */
  findByCode(organizationId: string, code: string): Promise<Discount | null> {
    return this.em.findOne(Discount, {
      organizationId,
      deletedAt: null,
      [raw(alias => `lower(${alias}.code) = lower(?)`, [code])]: [],
    } as FilterQuery<Discount>);
  }
}
