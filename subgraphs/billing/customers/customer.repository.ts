import { type EntityManager, type FilterQuery, raw } from '@mikro-orm/postgresql';
import type { Principal } from '../../../kit/principal.js';
import { containsPattern, findPage } from '../shared/repository.js';
import { Customer } from './customer.entity.js';

export interface CustomerFilters {
  organizationIds?: readonly string[] | null;
  email?: string | null;
  query?: string | null;
  /** key → accepted values (text comparison, as Polar's `metadata[key]=value`). */
  metadata?: Record<string, readonly string[]> | null;
}

/**
 * Every read of customers goes through here, scoped to the principal's organizations (resolved by
 * identity at the edge: billing never reads identity's tables). A user or an organization token sees
 * the live customers of the organizations it may act for; a customer session sees itself; anyone
 * else sees nothing. Another tenant's id is "not found".
 */
export class CustomerRepository {
  constructor(private readonly em: EntityManager) {}

  /** Live customers only, unless `includeDeleted` (embedding keeps showing a deleted customer). */
  readableFilter(principal: Principal, { includeDeleted = false } = {}): FilterQuery<Customer> {
    const organizationIds = principal.organizationIds;
    if (!organizationIds.length) return { id: null } as never;
    const live = includeDeleted ? {} : { deletedAt: null };
    switch (principal.subject) {
      case 'organization':
      case 'user':
        return {
          organizationId: organizationIds.length === 1 ? organizationIds[0] : { $in: organizationIds },
          ...live,
        };
      case 'customer':
        return { id: principal.subjectId!, organizationId: { $in: organizationIds }, ...live };
      default:
        return { id: null } as never;
    }
  }

  private where(principal: Principal, extra: FilterQuery<Customer>): FilterQuery<Customer> {
    return { $and: [this.readableFilter(principal), extra] } as FilterQuery<Customer>;
  }

  list(
    principal: Principal,
    filters: CustomerFilters,
    orderBy: Record<string, 'asc' | 'desc'>,
    window: { limit: number; offset: number },
  ): Promise<[Customer[], number]> {
    const conditions: FilterQuery<Customer>[] = [];
    if (filters.organizationIds?.length) conditions.push({ organizationId: { $in: [...filters.organizationIds] } });
    if (filters.email)
      conditions.push({
        [raw(alias => `lower(${alias}.email)`)]: filters.email.toLowerCase(),
      } as FilterQuery<Customer>);
    if (filters.query) {
      const pattern = containsPattern(filters.query);
      conditions.push({
        $or: [{ email: { $ilike: pattern } }, { name: { $ilike: pattern } }, { externalId: { $ilike: pattern } }],
      });
    }
    for (const [key, values] of Object.entries(filters.metadata ?? {})) {
      if (!values.length) continue;
      const marks = values.map(() => '?').join(', ');
      conditions.push({
        [raw(alias => `(${alias}.metadata ->> ?) in (${marks})`, [key, ...values])]: [],
      } as FilterQuery<Customer>);
    }
    const where = this.where(principal, conditions.length ? ({ $and: conditions } as FilterQuery<Customer>) : {});
    return findPage(this.em, Customer, where, orderBy, window);
  }

  findReadable(principal: Principal, id: string): Promise<Customer | null> {
    return this.em.findOne(Customer, this.where(principal, { id }));
  }

  findReadableByExternalId(
    principal: Principal,
    externalId: string,
    organizationId?: string | null,
  ): Promise<Customer | null> {
    return this.em.findOne(
      Customer,
      this.where(principal, organizationId ? { externalId, organizationId } : { externalId }),
    );
  }

  /**
   * Customers by id for embedding and `_entities`, deleted ones included (a subscription of a deleted
   * customer still shows it, with `deleted_at`), but never another tenant's.
   */
  findReadableMany(principal: Principal, ids: readonly string[]): Promise<Customer[]> {
    return this.em.find(Customer, {
      $and: [this.readableFilter(principal, { includeDeleted: true }), { id: { $in: [...ids] } }],
    } as FilterQuery<Customer>);
  }

  /** Live customers of one organization with this e-mail (case-insensitive), for the uniqueness rule. */
  findByEmail(organizationId: string, email: string): Promise<Customer | null> {
    return this.em.findOne(Customer, {
      organizationId,
      deletedAt: null,
      [raw(alias => `lower(${alias}.email)`)]: email.toLowerCase(),
    } as FilterQuery<Customer>);
  }

  /** Any customer of one organization (deleted ones too: the unique index covers them) with this external id. */
  findByExternalId(organizationId: string, externalId: string): Promise<Customer | null> {
    return this.em.findOne(Customer, { organizationId, externalId });
  }
}
