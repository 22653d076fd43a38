import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { Customer } from '../customers/customer.entity.js';
import { Product } from '../products/product.entity.js';
import { Subscription } from '../subscriptions/subscription.entity.js';
import { Checkout } from './checkout.entity.js';

/**
 * Checkouts, and what a checkout reads of its organization's customers, products and subscriptions
 * while it is created, priced, confirmed, fulfilled or expired. Runs on the caller's EntityManager
 * (its transaction when there is one).
 */
export class CheckoutRepository {
  constructor(private readonly em: EntityManager) {}

  findById(id: string): Promise<Checkout | null> {
    return this.em.findOne(Checkout, { id });
  }

  findByClientSecret(clientSecret: string): Promise<Checkout | null> {
    return this.em.findOne(Checkout, { clientSecret });
  }

  /** The checkout, row-locked until the transaction ends (one change of a checkout at a time). */
  findForUpdate(
    where: { id: string } | { clientSecret: string } | { pendingIntentId: string },
  ): Promise<Checkout | null> {
    return this.em.findOne(Checkout, where, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }

  /** The earliest `expires_at` of any open checkout, or null. */
  async earliestOpenExpiry(): Promise<Date | string | null> {
    const rows = await this.em
      .getConnection()
      .execute<{ at: Date | string | null }[]>(
        `select min(expires_at) as at from billing.checkouts where status = 'open'`,
      );
    return rows[0]?.at ?? null;
  }

  /** The earliest `expires_at` of the organization's open checkouts up to `upTo`, or null. */
  async earliestOpenExpiryOf(organizationId: string, upTo: Date): Promise<Date | string | null> {
    const rows = await this.em
      .getConnection()
      .execute<{ at: Date | string | null }[]>(
        `select min(expires_at) as at from billing.checkouts where organization_id = ? and status = 'open' and expires_at <= ?`,
        [organizationId, upTo],
      );
    return rows[0]?.at ?? null;
  }

  /** Up to `limit` organizations with an open checkout expired at `now`. */
  async organizationsWithExpiredOpen(now: Date, limit: number): Promise<string[]> {
    const rows = await this.em
      .getConnection()
      .execute<{ organization_id: string }[]>(
        `select distinct organization_id from billing.checkouts where status = 'open' and expires_at <= ? limit ?`,
        [now, limit],
      );
    return rows.map(r => r.organization_id);
  }

  /**
   * Marks up to `batch` of the organization's open checkouts expired at `at` as `expired` (oldest
   * expiry first, skipping rows another transaction holds); answers their ids.
   */
  async expireOpen(organizationId: string, at: Date, batch: number): Promise<string[]> {
    return (
      await this.em.execute<{ id: string }[]>(
        `update billing.checkouts set status = 'expired', modified_at = ?
               where id in (select id from billing.checkouts where organization_id = ? and status = 'open' and expires_at <= ?
                            order by expires_at, id limit ? for update skip locked)
               returning id`,
        [at, organizationId, at, batch],
      )
    ).map(r => r.id);
  }

  /** The checkout's succeeded payments now belong to its order and customer. */
  async linkSucceededPayments(checkoutId: string, orderId: string, customerId: string): Promise<void> {
    await this.em.execute(
      'update billing.payments set order_id = ?, customer_id = ? where checkout_id = ? and status = ?',
      [orderId, customerId, checkoutId, 'succeeded'],
    );
  }

  /** A live customer of the organization by id, or by external id. */
  findLiveCustomer(organizationId: string, where: { id: string } | { externalId: string }): Promise<Customer | null> {
    return this.em.findOne(Customer, { organizationId, deletedAt: null, ...where });
  }

  /** A live customer of the organization with this e-mail (case-insensitive), the first the index gives. */
  async findLiveCustomerByEmail(organizationId: string, email: string): Promise<Customer | null> {
    const rows = await this.em.execute<{ id: string }[]>(
      'select id from billing.customers where organization_id = ? and lower(email) = lower(?) and deleted_at is null limit 1',
      [organizationId, email],
    );
    return rows[0] ? this.em.findOne(Customer, { id: rows[0].id }) : null;
  }

  customer(id: string): Promise<Customer> {
    return this.em.findOneOrFail(Customer, { id });
  }

  product(id: string): Promise<Product> {
    return this.em.findOneOrFail(Product, { id });
  }

  productOfOrganization(id: string, organizationId: string): Promise<Product> {
    return this.em.findOneOrFail(Product, { id, organizationId });
  }

  findSubscriptionOfOrganization(id: string, organizationId: string): Promise<Subscription | null> {
    return this.em.findOne(Subscription, { id, organizationId });
  }

  subscriptionOfOrganization(id: string, organizationId: string): Promise<Subscription> {
    return this.em.findOneOrFail(Subscription, { id, organizationId });
  }

  /**
   * How many of the organization's subscriptions started on a trial for a customer whose e-mail,
   * lower-cased and without its `+alias`, is `unaliasedEmail`.
   */
  async trialsStartedBy(organizationId: string, unaliasedEmail: string): Promise<number> {
    const rows = await this.em.execute<{ n: string }[]>(
      `select count(*) as n from billing.subscriptions s join billing.customers c on c.id = s.customer_id
      where s.organization_id = ? and s.trial_start is not null
        and regexp_replace(lower(c.email), '\\+[^@]*@', '@') = ?`,
      [organizationId, unaliasedEmail],
    );
    return Number(rows[0]?.n ?? 0);
  }
}
