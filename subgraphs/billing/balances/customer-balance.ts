import type { EntityManager } from '@mikro-orm/postgresql';
import { settle } from '../pricing/proration.js';
import { CustomerBalanceEntry } from './customer-balance-entry.entity.js';
import { CustomerBalanceQueries } from './customer-balance.queries.js';

/**
 * A customer's balance in one currency: what we owe the customer (credits of plan changes larger than
 * their charge), used by the next orders before anything is charged. A ledger
 * (`billing.customer_balance_entries`), summed under the customer's row lock so two orders of one
 * customer (two subscriptions renewing at once) cannot both use the same balance.
 */
export async function lockedBalance(em: EntityManager, customerId: string, currency: string): Promise<bigint> {
  if (!em.isInTransaction()) throw new Error('a customer balance is read inside a transaction');
  const ledger = new CustomerBalanceQueries(em);
  await ledger.lockCustomer(customerId);
  return ledger.sum(customerId, currency);
}

export interface BalanceSettlement {
  /** Polar's `applied_balance_amount`: ≤ 0, the balance this order uses (`due = total + applied`). */
  appliedBalanceAmount: bigint;
  /** What is left to charge (≥ 0). */
  dueAmount: bigint;
  /** Balance the order adds (a negative total), ≥ 0. */
  credited: bigint;
  /** Balance the order uses, ≥ 0. */
  used: bigint;
}

/** How an order of `total` meets the customer's balance (`settle` in pricing/proration.ts); writes nothing. */
export async function settleWithBalance(
  em: EntityManager,
  customerId: string,
  currency: string,
  total: bigint,
): Promise<BalanceSettlement> {
  return settlementOf(total, await lockedBalance(em, customerId, currency));
}

/** How an order of `total` meets a balance read under the customer's lock (pure). */
export function settlementOf(total: bigint, balance: bigint): BalanceSettlement {
  const s = settle(total, balance);
  return {
    appliedBalanceAmount: -s.applied_balance_amount,
    dueAmount: s.due_amount,
    credited: total < 0n ? -total : 0n,
    used: s.applied_balance_amount,
  };
}

/** Records what an order did to the balance (in the order's transaction). */
export function recordBalanceEntries(
  em: EntityManager,
  order: { id: string; organizationId: string; customerId: string; currency: string },
  settlement: BalanceSettlement,
  now: Date,
): void {
  const base = { organizationId: order.organizationId, customerId: order.customerId, currency: order.currency };
  if (settlement.used > 0n)
    em.create(CustomerBalanceEntry, {
      ...base,
      amount: -settlement.used,
      orderId: order.id,
      reason: 'applied_to_order',
      createdAt: now,
    });
  if (settlement.credited > 0n)
    em.create(CustomerBalanceEntry, {
      ...base,
      amount: settlement.credited,
      orderId: order.id,
      reason: 'proration_credit',
      createdAt: now,
    });
}
