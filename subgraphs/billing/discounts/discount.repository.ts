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

  findReadable(principal: Principal, id: string): Promise<Discount | null> {
    return this.em.findOne(Discount, { $and: [this.readableFilter(principal), { id }] });
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
}
