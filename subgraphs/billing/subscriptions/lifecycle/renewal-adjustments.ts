import type { EntityManager } from '@mikro-orm/postgresql';
import { recordBalanceEntries, settleWithBalance } from '../../balances/customer-balance.js';
import type { NewOrderItem } from '../../orders/create-order.js';
import { ProductRepository } from '../../products/product.repository.js';
import { PriceAmountType } from '../../shared/enums.js';
import type { Subscription } from '../subscription.entity.js';
import { applyScheduledChange, type ScheduledChange } from '../transitions/lifecycle.js';
import { seatTotal, termsOf } from '../update-subscription-terms.js';
import { RenewalQueries } from './renewal.queries.js';

/**
 * The seam between plan changes and renewals. A renewal (the scheduler's `subscription_cycle` order)
 * asks, inside its transaction and before it prices the new period:
 *  1. `applyPendingUpdate`: a `next_period` change waiting in `subscription.pendingUpdate` takes
 *     effect now (product, price, seats), so the new period bills what the customer chose;
 *  2. `takeRenewalAdjustments`: the proration items that `prorate` changes left for the next renewal
 *     order (each taken once: marked with the order that carries it), and the customer balance that
 *     order may use (`applied_balance_amount`).
 */

/**
 * Applies the subscription's pending update when it is due at `at` (its `applies_at`, the end of the
 * period it was made in): the product with its live prices (seats kept, or the pending seats), or the
 * seats alone at the seat price's tiers; the pending update is then cleared. The caller holds the
 * subscription (its lock or row lock) and records `subscription.updated` with the renewal. A product
 * that no longer has a price leaves the subscription as it is (the update is dropped). Returns whether
 * anything changed.
 */
export async function applyPendingUpdate(em: EntityManager, subscription: Subscription, at: Date): Promise<boolean> {
  const pending = subscription.pendingUpdate;
  if (!pending || new Date(pending.applies_at).getTime() > at.getTime()) return false;
  const repository = new ProductRepository(em);
  const seats = pending.seats ?? subscription.seats;
  let change: ScheduledChange = null;
  if (pending.product_id && pending.product_id !== subscription.productId) {
    const [product] = await repository.findInOrganization(subscription.organizationId, [pending.product_id]);
    const prices = product ? ((await repository.pricesOf([product.id])).get(product.id) ?? []) : [];
    if (product?.recurringInterval && prices.length) change = { terms: termsOf(product, prices, seats) };
  } else if (pending.seats !== null && pending.seats !== subscription.seats) {
    const prices = await repository.findPricesByIds(subscription.priceIds);
    const seatPrice = prices.find(p => p.amountType === PriceAmountType.SEAT_BASED);
    if (seatPrice?.seatTiers) change = { seats: pending.seats, amount: seatTotal(seatPrice.seatTiers, pending.seats) };
  }
  applyScheduledChange(subscription, change, at);
  await em.flush();
  return true;
}

export interface RenewalAdjustments {
  /** Extra lines of the renewal order (`proration: true` for prorations). */
  items: NewOrderItem[];
  /**
   * Call once the renewal order exists (flushed, in the same transaction), with its total before any
   * balance (`subtotal − discount + tax`, the adjustment items included): marks the items taken by
   * that order, uses the customer's balance, records it on the order (`applied_balance_amount`) and
   * answers what is left to charge. `appliedBalanceAmount` has Polar's sign: ≤ 0 when the balance
   * pays part of the order (`due = total + applied`); a negative total adds to the balance.
   */
  commit(orderId: string, totalBeforeBalance: bigint): Promise<{ appliedBalanceAmount: bigint; dueAmount: bigint }>;
  /** Only marks the items taken by that order (the caller settled the balance itself). */
  markTaken(orderId: string): Promise<void>;
}

/**
 * The proration items waiting for this subscription's next renewal order, locked (`FOR UPDATE`) so a
 * second renewal running at once waits and then finds them taken. Each is taken once: `commit` sets
 * its `order_id` only where it is still null and fails when another order got there first.
 */
export async function takeRenewalAdjustments(
  em: EntityManager,
  subscription: Subscription,
  at: Date,
): Promise<RenewalAdjustments> {
  if (!em.isInTransaction()) throw new Error('takeRenewalAdjustments must run inside the renewal transaction');
  const ids = await new RenewalQueries(em).lockDueProrationItems(subscription.id, at);
  return adjustmentsOf(em, subscription, at, ids);
}

/** `takeRenewalAdjustments` for items the caller already selected and locked with `PRORATION_ITEMS_DUE` (renewal.queries.ts). */
export async function adjustmentsOf(
  em: EntityManager,
  subscription: Subscription,
  at: Date,
  ids: readonly string[],
): Promise<RenewalAdjustments> {
  const renewals = new RenewalQueries(em);
  const pending = ids.length ? await renewals.prorationItems(ids) : [];
  const markTaken = async (orderId: string): Promise<void> => {
    if (pending.length) {
      const taken = await renewals.takeProrationItems(
        pending.map(item => item.id),
        orderId,
        at,
      );
      if (taken.length !== pending.length)
        throw new Error(`proration items of subscription ${subscription.id} were taken by another order`);
      for (const item of pending) {
        item.orderId = orderId;
        item.takenAt = at;
      }
    }
  };
  return {
    items: pending.map(item => ({
      label: item.label,
      amount: BigInt(item.amount),
      productPriceId: null,
      proration: true,
      startTimestamp: item.startTimestamp,
      endTimestamp: item.endTimestamp,
    })),
    markTaken,
    async commit(orderId, totalBeforeBalance) {
      await markTaken(orderId);
      const order = await renewals.orderById(orderId);
      const settlement = await settleWithBalance(em, order.customerId, order.currency, totalBeforeBalance);
      order.appliedBalanceAmount = settlement.appliedBalanceAmount;
      recordBalanceEntries(em, order, settlement, at);
      await em.flush();
      return { appliedBalanceAmount: settlement.appliedBalanceAmount, dueAmount: settlement.dueAmount };
    },
  };
}
