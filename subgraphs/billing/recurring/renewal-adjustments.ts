import type { EntityManager } from '@mikro-orm/postgresql';
import type { NewOrderItem } from '../orders/create-order.js';
import type { Subscription } from '../subscriptions/subscription.entity.js';

/**
 * The seam between plan changes and renewals. A renewal (the scheduler's `subscription_cycle` order)
 * asks, inside its transaction and before it prices the new period:
 *  1. `applyPendingUpdate`: a `next_period` change waiting in `subscription.pendingUpdate` takes
 *     effect now (product, price, seats), so the new period bills what the customer chose;
 *  2. `takeRenewalAdjustments`: the proration items that `prorate` changes left for the next renewal
 *     order (each taken once: marked with the order that carries it), and the customer balance that
 *     order may use (`applied_balance_amount`).
 * Both are no-ops until plan changes record something.
 */
export async function applyPendingUpdate(_em: EntityManager, _subscription: Subscription, _at: Date): Promise<void> {}

export interface RenewalAdjustments {
  /** Extra lines of the renewal order (`proration: true` for prorations). */
  items: NewOrderItem[];
  /** Call once the renewal order exists, to mark the items taken and record the balance used. */
  commit(orderId: string, totalBeforeBalance: bigint): Promise<{ appliedBalanceAmount: bigint }>;
}

export async function takeRenewalAdjustments(
  _em: EntityManager,
  _subscription: Subscription,
  _at: Date,
): Promise<RenewalAdjustments> {
  return { items: [], commit: async () => ({ appliedBalanceAmount: 0n }) };
}
