import { type EntityManager, type FilterQuery, raw } from '@mikro-orm/postgresql';
import type { Principal } from '../../../kit/principal.js';
import { CORE_READERS, PORTAL_READERS, tenantScope } from '../../../kit/database/tenant-scope.js';

/** People and organization tokens read their organizations' customers; a customer session itself. */
const CUSTOMER_READERS = [...CORE_READERS, ...PORTAL_READERS];
import { Customer } from './customer.entity.js';

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
    const scope = tenantScope(principal, CUSTOMER_READERS);
    if (!scope) return { id: null } as never;
    const live = includeDeleted ? {} : { deletedAt: null };
    const organizationId = { $in: [...scope.organizationIds] };
    return scope.customerId ? { id: scope.customerId, organizationId, ...live } : { organizationId, ...live };
  }

  private where(principal: Principal, extra: FilterQuery<Customer>): FilterQuery<Customer> {
    return { $and: [this.readableFilter(principal), extra] } as FilterQuery<Customer>;
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
   * Up to `limit` readable customers with this external id: one per organization, so a user token
   * reaching several organizations may find more than one (Polar's ambiguous external id).
   */
  findAllReadableByExternalId(principal: Principal, externalId: string, limit: number): Promise<Customer[]> {
    return this.em.find(Customer, this.where(principal, { externalId }), { limit, orderBy: { id: 'asc' } });
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

  /** Any customer by id (deleted ones too), as a change already scoped by its subscription bills it. */
  findByIdOrFail(id: string): Promise<Customer> {
    return this.em.findOneOrFail(Customer, { id });
  }

  /** The organization's live customer with this id, or null (another organization's, deleted, unknown). */
  findLiveInOrganization(organizationId: string, id: string): Promise<Customer | null> {
    return this.em.findOne(Customer, { id, organizationId, deletedAt: null });
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

  /**
   * The earliest user event naming this external customer id (Polar's `first_user_event_at` for a customer created,
   * or given its external id, after its events came: docs/usage-events.md#first-user-event).
   */
  async firstUserEventAt(organizationId: string, externalId: string): Promise<Date | null> {
    const [row] = await this.em.execute<{ at: Date | string | null }[]>(
      `select min(timestamp) as at from billing.usage_events
       where organization_id = ? and external_customer_id = ? and source = 'user'`,
      [organizationId, externalId],
    );
    return row?.at ? new Date(row.at) : null;
  }
}
