import type { EntityManager } from '@mikro-orm/postgresql';
import { Customer } from '../customers/customer.entity.js';
import { Order } from '../orders/order.entity.js';
import { Subscription } from '../subscriptions/subscription.entity.js';
import { CustomerSeat } from '../customer-seats/customer-seat.entity.js';
import { BenefitGrant } from './benefit-grant.entity.js';

/** What holds grants: a subscription, or a one-time order. */
export type Holder = { subscriptionId: string; orderId: null } | { subscriptionId: null; orderId: string };

const holderWhere = (holder: Holder) =>
  holder.subscriptionId ? { subscriptionId: holder.subscriptionId } : { orderId: holder.orderId as string };

/** What holds a grant: its subscription, or its one-time order (`subscription_id` null). */
export interface GrantHolderRow {
  id: string;
  subscription_id: string | null;
}

/** Reconcile jobs of one organization not yet run (grace-period rechecks aside: the scan below covers them). */
const PENDING_JOBS = `select j.idempotency_key as key from billing.jobs j
  where j.kind = ? and j.status = 'pending' and j.attempts = 0 and coalesce(j.payload ->> 'eventType', '') <> 'grace_period_end'
    and ((j.payload ->> 'source' = 'subscription' and exists (select 1 from billing.subscriptions s where s.id = (j.payload ->> 'id')::uuid and s.organization_id = ?))
      or (j.payload ->> 'source' = 'order' and exists (select 1 from billing.orders o where o.id = (j.payload ->> 'id')::uuid and o.organization_id = ?)))
  order by j.created_at`;

/** Past-due subscriptions of the organization that still hold granted benefits. */
const PAST_DUE_HOLDERS = `select s.id, s.past_due_at from billing.subscriptions s
  where s.organization_id = ? and s.status = 'past_due' and s.past_due_at is not null
    and exists (select 1 from billing.benefit_grants g where g.subscription_id = s.id and g.granted_at is not null and g.revoked_at is null)
  order by s.past_due_at`;

/**
 * Grants, and what the grant engine reads of their holders and customers. Runs on the caller's
 * EntityManager (the reconcile's transaction).
 */
export class BenefitGrantRepository {
  constructor(private readonly em: EntityManager) {}

  /** One reconcile of a holder at a time (a transaction-scoped advisory lock); the unique indexes back it up. */
  async lockHolder(holderId: string): Promise<void> {
    await this.em.execute(`select pg_advisory_xact_lock(hashtextextended('benefits:' || ?, 0))`, [holderId]);
  }

  findById(id: string): Promise<BenefitGrant | null> {
    return this.em.findOne(BenefitGrant, { id });
  }

  /** The grant as the database has it now (re-read, not the identity map's copy). */
  findFresh(id: string): Promise<BenefitGrant> {
    return this.em.findOneOrFail(BenefitGrant, { id }, { refresh: true });
  }

  /** The granted, not revoked grants of one benefit. */
  liveOfBenefit(benefitId: string): Promise<BenefitGrant[]> {
    return this.em.find(BenefitGrant, { benefitId, revokedAt: null, grantedAt: { $ne: null } });
  }

  /** Every grant (revoked ones too) of one subscription or one-time order, of one customer when given. */
  ofHolder(holder: Holder, customerId?: string) {
    return this.em.find(BenefitGrant, { ...holderWhere(holder), ...(customerId ? { customerId } : {}) });
  }

  /** The customers holding grants (revoked ones too) of one subscription or one-time order. */
  async customersOfHolder(holder: Holder): Promise<string[]> {
    const grants = await this.em.find(BenefitGrant, holderWhere(holder), { fields: ['customerId'] });
    return [...new Set(grants.map(g => g.customerId))];
  }

  /** The holders of the claimed seats of a seat-based subscription or order (docs/customer-seats.md#benefits). */
  async claimedSeatHolders(holder: Holder): Promise<string[]> {
    const seats = await this.em.find(
      CustomerSeat,
      { ...holderWhere(holder), status: 'claimed', customerId: { $ne: null } },
      { orderBy: { createdAt: 'asc' } },
    );
    return seats.map(seat => seat.customerId as string);
  }

  /** The grant's holder id (its subscription, else its order), or undefined when there is no such grant. */
  async holderOf(grantId: string): Promise<GrantHolderRow | undefined> {
    const [holder] = await this.em.execute<GrantHolderRow[]>(
      'select coalesce(subscription_id, order_id) as id, subscription_id from billing.benefit_grants where id = ?',
      [grantId],
    );
    return holder;
  }

  subscription(id: string): Promise<Subscription | null> {
    return this.em.findOne(Subscription, { id });
  }

  order(id: string): Promise<Order | null> {
    return this.em.findOne(Order, { id });
  }

  customer(id: string): Promise<Customer> {
    return this.em.findOneOrFail(Customer, { id });
  }

  /** Keys of the organization's reconcile jobs of `kind` not run yet, oldest first (`first`: only one). */
  pendingReconcileJobKeys(kind: string, organizationId: string, { first = false } = {}): Promise<{ key: string }[]> {
    return this.em.execute<{ key: string }[]>(first ? `${PENDING_JOBS} limit 1` : PENDING_JOBS, [
      kind,
      organizationId,
      organizationId,
    ]);
  }

  /** The organization's past-due subscriptions holding granted benefits, by `past_due_at` (`first`: only one). */
  pastDueHolders(organizationId: string, { first = false } = {}): Promise<{ id: string; past_due_at: Date }[]> {
    return this.em.execute<{ id: string; past_due_at: Date }[]>(
      first ? `${PAST_DUE_HOLDERS} limit 1` : PAST_DUE_HOLDERS,
      [organizationId],
    );
  }
}
