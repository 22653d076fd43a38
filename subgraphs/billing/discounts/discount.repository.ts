import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { Principal } from '../../../kit/principal.js';
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

  list(principal: Principal, filters: DiscountFilters, orderBy: Array<Record<string, 'asc' | 'desc'>>, window: { limit: number; offset: number }): Promise<[Discount[], number]> {
    const and: FilterQuery<Discount>[] = [this.readableFilter(principal)];
    if (filters.organizationIds?.length) and.push({ organizationId: { $in: filters.organizationIds } });
    if (filters.query) {
      const pattern = `%${filters.query.replace(/[\\%_]/g, c => `\\${c}`)}%`;
      and.push({ $or: [{ name: { $ilike: pattern } }, { code: { $ilike: pattern } }] });
    }
    return this.em.findAndCount(Discount, { $and: and }, { orderBy, limit: window.limit, offset: window.offset });
  }

  findReadable(principal: Principal, id: string): Promise<Discount | null> {
    return this.em.findOne(Discount, { $and: [this.readableFilter(principal), { id }] });
  }

  findReadableMany(principal: Principal, ids: readonly string[]): Promise<Discount[]> {
    return this.em.find(Discount, { $and: [this.readableFilter(principal), { id: { $in: [...ids] } }] });
  }

  /** Any discount by id, deleted ones included (a subscription keeps showing the discount it got). */
  findManyIncludingDeleted(principal: Principal, ids: readonly string[]): Promise<Discount[]> {
    return this.em.find(Discount, { organizationId: { $in: principal.organizationIds }, id: { $in: [...ids] } });
  }

  /** A live discount of the organization with this code, compared case-insensitively. */
  async findByCode(organizationId: string, code: string): Promise<Discount | null> {
    const rows = await this.em.getConnection().execute<{ id: string }[]>(
      'select id from "billing"."discounts" where organization_id = ? and lower(code) = lower(?) and deleted_at is null limit 1',
      [organizationId, code],
    );
    return rows.length ? this.em.findOne(Discount, { id: rows[0].id }) : null;
  }
}
