import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../kit/database/tenant-scope.js';
import { Customer } from '../customers/customer.entity.js';
import { Order } from '../orders/order.entity.js';
import { Product } from '../products/product.entity.js';
import { Subscription } from '../subscriptions/subscription.entity.js';
import { CustomerSeat } from './customer-seat.entity.js';

/** What holds seats: a seat-based subscription, or a one-time order of a seat-based price. */
export type SeatContainer = { kind: 'subscription'; row: Subscription } | { kind: 'order'; row: Order };

/** Which container a request names (exactly one of the two ids). */
export type SeatContainerRef = { subscriptionId: string } | { orderId: string };

const containerWhere = (container: SeatContainer) =>
  container.kind === 'subscription' ? { subscriptionId: container.row.id } : { orderId: container.row.id };

/** Every query of the seats' write path; reads that are served go through `customerSeatRead`. */
export class CustomerSeatRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * The subscription or order within the caller's scope (a customer: its own purchases), or null.
   * `lock`: `for update`, so a seat assignment and a change of the seat count take turns on the row.
   */
  async findContainer(
    scope: TenantScope | null,
    ref: SeatContainerRef,
    { lock = false } = {},
  ): Promise<SeatContainer | null> {
    if (!scope?.organizationIds.length) return null;
    const where: Record<string, unknown> = { organizationId: { $in: [...scope.organizationIds] } };
    if (scope.customerId) where.customerId = scope.customerId;
    const options = lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {};
    if ('subscriptionId' in ref) {
      const row = await this.em.findOne(Subscription, { ...where, id: ref.subscriptionId }, options);
      return row && { kind: 'subscription', row };
    }
    const row = await this.em.findOne(Order, { ...where, id: ref.orderId }, options);
    return row && { kind: 'order', row };
  }

  /** Seats taken (pending or claimed): what the seat count limits. */
  countOccupied(container: SeatContainer): Promise<number> {
    return this.em.count(CustomerSeat, { ...containerWhere(container), status: { $in: ['pending', 'claimed'] } });
  }

  /** The pending and claimed seats of a subscription (its end revokes them: customer-seat.ending.ts). */
  liveOfSubscription(subscriptionId: string): Promise<CustomerSeat[]> {
    return this.em.find(CustomerSeat, { subscriptionId, status: { $in: ['pending', 'claimed'] } });
  }

  /** A member's pending and claimed seats, locked: its deletion revokes them. */
  liveOfMember(memberId: string): Promise<CustomerSeat[]> {
    return this.em.find(
      CustomerSeat,
      { memberId, status: { $in: ['pending', 'claimed'] } },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
  }

  /** A revoked seat the next assignment reuses (Polar keeps one row per seat). */
  findRevoked(container: SeatContainer): Promise<CustomerSeat | null> {
    return this.em.findOne(
      CustomerSeat,
      { ...containerWhere(container), status: 'revoked' },
      { orderBy: { createdAt: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE },
    );
  }

  /** The live seat this customer holds in the container, if any. */
  findHeldBy(container: SeatContainer, customerId: string): Promise<CustomerSeat | null> {
    return this.em.findOne(CustomerSeat, {
      ...containerWhere(container),
      customerId,
      status: { $in: ['pending', 'claimed'] },
    });
  }

  /** The seat an invitation token opens (by its HMAC), locked: two claims of one token take turns. */
  findByTokenHash(tokenHash: string, { lock = false } = {}): Promise<CustomerSeat | null> {
    return this.em.findOne(
      CustomerSeat,
      { invitationTokenHash: tokenHash },
      lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
    );
  }

  /** The container a seat belongs to, whoever asks (the seat was found within scope already). */
  async containerOf(seat: CustomerSeat): Promise<SeatContainer | null> {
    if (seat.subscriptionId) {
      const row = await this.em.findOne(Subscription, { id: seat.subscriptionId });
      return row && { kind: 'subscription', row };
    }
    const row = seat.orderId ? await this.em.findOne(Order, { id: seat.orderId }) : null;
    return row && { kind: 'order', row };
  }

  /** The product a container sells (for the invitation and the claim info). */
  findProduct(container: SeatContainer | null): Promise<Product | null> {
    const id = container?.row.productId;
    return id ? this.em.findOne(Product, { id }) : Promise.resolve(null);
  }

  /** A customer by id; `organizationId` and `live` narrow it to the organization's live customers. */
  findCustomer(id: string | null, where: { organizationId?: string; live?: boolean } = {}): Promise<Customer | null> {
    if (!id) return Promise.resolve(null);
    return this.em.findOne(Customer, {
      id,
      ...(where.organizationId ? { organizationId: where.organizationId } : {}),
      ...(where.live ? { deletedAt: null } : {}),
    });
  }

  /**
   * One page of the subscriptions in which the scope's customer holds a claimed seat (newest start
   * first), and how many there are. Only the ids: the subscriptions are read by the read model.
   */
  async claimedSubscriptionIds(
    scope: TenantScope,
    window: { limit: number; offset: number },
  ): Promise<{ ids: string[]; total: number }> {
    if (!scope.customerId || !scope.organizationIds.length) return { ids: [], total: 0 };
    const from = `from billing.customer_seats cs join billing.subscriptions s
      on s.id = cs.subscription_id and s.organization_id = cs.organization_id
      where cs.organization_id in (?) and cs.customer_id = ? and cs.status = 'claimed'`;
    const values = [[...scope.organizationIds], scope.customerId];
    const connection = this.em.getConnection();
    const [rows, [count]] = await Promise.all([
      connection.execute(`select s.id ${from} order by s.started_at desc nulls last, s.id limit ? offset ?`, [
        ...values,
        window.limit,
        window.offset,
      ]),
      connection.execute(`select count(*)::int as total ${from}`, values),
    ]);
    return { ids: rows.map(r => String(r.id)), total: Number(count?.total ?? 0) };
  }
}
