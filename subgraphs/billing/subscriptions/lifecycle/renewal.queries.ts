import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import type { Address } from '../../customers/customer.entity.js';
import type { NewOrderItem } from '../../orders/create-order.js';
import { Order } from '../../orders/order.entity.js';
import { Payment } from '../../payments/payment.entity.js';
import type { ChargeOutcome } from '../../payments/payment-processor.js';
import { CHARGEABLE_METHOD_OF_CUSTOMER } from '../../payments/saved-payment-method.repository.js';
import { SubscriptionStatus } from '../../shared/enums.js';
import { ProrationItem } from '../proration-item.entity.js';
import { Subscription } from '../subscription.entity.js';
import type { OrderTax } from '../../orders/sale-tax.js';
import type { TaxBehaviorOption, TaxId } from '../../tax/tax.contract.js';
import { paymentFieldsOf } from './charge-outcome.js';
import { abandonedBefore, PAYMENT_WAIT_MS } from './dunning.js';

/**
 * The ids of the proration items due (parameters: the subscription, the instant), locked: a statement
 * of its own, or a sub-select of a larger one (the renewal's first charge).
 */
export const PRORATION_ITEMS_DUE =
  'select id from billing.subscription_proration_items where subscription_id = ? and order_id is null and created_at <= ? order by created_at, position, id for update';

/**
 * When an order's next automatic attempt may run: its `next_payment_attempt_at`, or later while a payment
 * of it waits for the customer (3-D Secure), when that wait counts as abandoned (dunning.ts). Parameter:
 * the wait, as an interval.
 */
const ATTEMPT_DUE = `greatest(o.next_payment_attempt_at,
  (select max(p.created_at) + ?::interval from billing.payments p where p.order_id = o.id and p.status = 'pending'))`;
const WAIT = `${PAYMENT_WAIT_MS / 1000} seconds`;

/** Whether a payment of order `o` waits for the customer (parameter: the instant before which it is abandoned). */
const WAITING_PAYMENT = `exists (select 1 from billing.payments p
  where p.order_id = o.id and p.status = 'pending' and p.created_at > ?)`;

/** What renewals, dunning retries and resumes work on next (one list per kind). */
export type RenewalKind = 'cycle' | 'retry' | 'resume';

/** The product's name and the customer's billing details a renewal order carries, and what its tax reads. */
export interface RenewalNames {
  product_name: string;
  name: string | null;
  billing_name: string | null;
  billing_address: Address | null;
  tax_id: TaxId | null;
  /** The subscription's price's own `tax_behavior` (null: the organization's default). */
  price_tax_behavior: TaxBehaviorOption | null;
}

/** The columns of `RenewalNames` (parameter: the subscription's price id). */
const NAMES = `p.name as product_name, c.name, c.billing_name, c.billing_address, c.tax_id,
  (select pp.tax_behavior from billing.product_prices pp where pp.id = ?::uuid) as price_tax_behavior`;

/** A renewal's customer balance, the card to charge and the proration items due (locked). */
export interface RenewalWallet {
  balance: string;
  processor_id: string | null;
  processor_customer_id: string | null;
  prorations: string[];
}

export interface RenewalOrderRow {
  id: string;
  s: Subscription;
  discountId: string | null;
  items: NewOrderItem[];
  discountAmount: bigint;
  appliedBalanceAmount: bigint;
  billingName: string | null;
  billingAddress: Address | null;
  tax: OrderTax;
  paid: boolean;
  createdAt: Date;
  at: Date;
  payment: { key: string; amount: bigint; outcome: ChargeOutcome; createdAt: Date } | null;
  /** The period the order is unique for (the current period's start; a final usage order's: its end). */
  periodStart: Date;
  /** When an unpaid order is tried again (null: never, as a final usage order). */
  nextAttemptAt: Date | null;
}

/**
 * The statements of the recurring engine (subscriptions/lifecycle/): what is due, the rows a renewal,
 * a dunning retry or a resume locks, and the renewal's few hand-written reads and writes. Each runs on
 * the entity manager it is constructed with, so inside the caller's transaction; locks are taken in
 * the order the callers call them.
 */
export class RenewalQueries {
  constructor(private readonly em: EntityManager) {}

  /** The earliest instant anything of the organization is due: a period end, a retry, a resume. */
  async nextDueAt(organizationId: string): Promise<Date | null> {
    const [row] = await this.em.execute<{ due: Date | null }[]>(
      `select least(
         (select min(current_period_end) from billing.subscriptions
           where organization_id = ? and status in ('active', 'trialing')),
         (select min(${ATTEMPT_DUE}) from billing.orders o
           where organization_id = ? and status = 'pending' and next_payment_attempt_at is not null
             and billing_reason = 'subscription_cycle'),
         (select min(resumes_at) from billing.subscriptions
           where organization_id = ? and status = 'paused' and resumes_at is not null)) as due`,
      [organizationId, WAIT, organizationId, organizationId],
    );
    return row?.due ? new Date(row.due) : null;
  }

  /** The earliest instant anything is due, over every organization. */
  async nextDueOverall(): Promise<Date | null> {
    const [row] = await this.em.execute<{ due: Date | null }[]>(
      `select least(
         (select min(current_period_end) from billing.subscriptions where status in ('active', 'trialing')),
         (select min(${ATTEMPT_DUE}) from billing.orders o
           where status = 'pending' and next_payment_attempt_at is not null and billing_reason = 'subscription_cycle'),
         (select min(resumes_at) from billing.subscriptions where status = 'paused' and resumes_at is not null)) as due`,
      [WAIT],
    );
    return row?.due ? new Date(row.due) : null;
  }

  /**
   * Up to `limit` ids of work of this kind due at `at` (subscriptions, or orders for retries), oldest
   * first, in one organization or all, leaving out `exclude`.
   */
  async dueIds(
    kind: RenewalKind,
    scope: { at: Date; organizationId?: string | null },
    exclude: readonly string[],
    limit: number,
  ): Promise<string[]> {
    const org = scope.organizationId ? 'and organization_id = ?' : '';
    const params: unknown[] = [scope.at];
    if (scope.organizationId) params.push(scope.organizationId);
    if (kind === 'retry') params.push(abandonedBefore(scope.at));
    // An array parameter would be spread into a list: the exclusions go as one array literal.
    params.push(`{${exclude.join(',')}}`, limit);
    const sql = {
      cycle: `select id from billing.subscriptions where status in ('active', 'trialing') and current_period_end <= ? ${org}
                and id <> all(?::uuid[]) order by current_period_end limit ?`,
      retry: `select id from billing.orders o where status = 'pending' and next_payment_attempt_at <= ? ${org}
                and billing_reason = 'subscription_cycle' and not ${WAITING_PAYMENT}
                and id <> all(?::uuid[]) order by next_payment_attempt_at limit ?`,
      resume: `select id from billing.subscriptions where status = 'paused' and resumes_at <= ? ${org}
                and id <> all(?::uuid[]) order by resumes_at limit ?`,
    }[kind];
    const rows = await this.em.execute<{ id: string }[]>(sql, params);
    return rows.map(r => r.id);
  }

  /** The subscription if its period has ended by `at` (active or trialing), locked, skipping it when another worker holds it. */
  lockIfPeriodEnded(id: string, at: Date): Promise<Subscription | null> {
    return this.em.findOne(
      Subscription,
      {
        id,
        status: { $in: [SubscriptionStatus.ACTIVE, SubscriptionStatus.TRIALING] },
        currentPeriodEnd: { $lte: at },
      },
      { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
  }

  /** The paused subscription if it resumes by `at`, locked, skipping it when another worker holds it. */
  lockIfDueToResume(id: string, at: Date): Promise<Subscription | null> {
    return this.em.findOne(
      Subscription,
      { id, status: SubscriptionStatus.PAUSED, resumesAt: { $lte: at } },
      { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
  }

  /** The pending order if its next payment attempt is due by `at`, locked, skipping it when another worker holds it. */
  lockIfAttemptDue(orderId: string, at: Date): Promise<Order | null> {
    return this.em.findOne(
      Order,
      { id: orderId, status: 'pending', nextPaymentAttemptAt: { $lte: at } },
      { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
  }

  /** Whether a payment of the order waits for the customer at `at` (3-D Secure, not yet abandoned). */
  async hasWaitingPayment(orderId: string, at: Date): Promise<boolean> {
    const rows = await this.em.execute<{ waiting: boolean }[]>(
      `select ${WAITING_PAYMENT} as waiting from billing.orders o where o.id = ?`,
      [abandonedBefore(at), orderId],
    );
    return rows[0]?.waiting === true;
  }

  /**
   * The customer's own payments of the order still `pending` after the wait allows (abandoned 3-D
   * Secure), row-locked: given up before another attempt of the order (abandoned-payments.ts).
   */
  abandonedPayments(orderId: string, at: Date): Promise<Payment[]> {
    return this.em.find(
      Payment,
      {
        orderId,
        status: 'pending',
        createdAt: { $lte: abandonedBefore(at) },
        idempotencyKey: { $like: 'charge:order:%:manual:%' },
      },
      { orderBy: { createdAt: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE },
    );
  }

  /** The subscription, row-locked until the transaction ends (waits for a holder); null when gone. */
  lockSubscription(id: string): Promise<Subscription | null> {
    return this.em.findOne(Subscription, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }

  /** The subscription, row-locked until the transaction ends (waits for a holder). */
  lockSubscriptionOrFail(id: string): Promise<Subscription> {
    return this.em.findOneOrFail(Subscription, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }

  subscriptionById(id: string): Promise<Subscription> {
    return this.em.findOneOrFail(Subscription, { id });
  }

  orderById(id: string): Promise<Order> {
    return this.em.findOneOrFail(Order, { id });
  }

  /** Row-locks the order without waiting: lock_not_available (55P03) when another transaction holds it. */
  async lockOrderNowait(orderId: string): Promise<void> {
    await this.em.execute('select id from billing.orders where id = ? for update nowait', [orderId]);
  }

  /** The ids of the subscription's proration items due at `at`, locked. */
  async lockDueProrationItems(subscriptionId: string, at: Date): Promise<string[]> {
    const rows = await this.em.execute<{ id: string }[]>(PRORATION_ITEMS_DUE, [subscriptionId, at]);
    return rows.map(r => r.id);
  }

  /** Proration items by id, in the order they were added. */
  prorationItems(ids: readonly string[]): Promise<ProrationItem[]> {
    return this.em.find(
      ProrationItem,
      { id: { $in: [...ids] } },
      { orderBy: { createdAt: 'asc', position: 'asc', id: 'asc' } },
    );
  }

  /** Gives the items still untaken to the order; the ids it took (fewer when another order got some first). */
  async takeProrationItems(ids: readonly string[], orderId: string, at: Date): Promise<string[]> {
    const taken = await this.em.execute<{ id: string }[]>(
      'update billing.subscription_proration_items set order_id = ?, taken_at = ? where id in (?) and order_id is null returning id',
      [orderId, at, ids],
    );
    return taken.map(r => r.id);
  }

  /** The product's name and the customer's billing details in one statement (no entity loads). */
  async namesOf(s: Subscription): Promise<RenewalNames | undefined> {
    const [names] = await this.em.execute<RenewalNames[]>(
      `select ${NAMES} from billing.products p, billing.customers c where p.id = ? and c.id = ?`,
      [s.priceIds[0] ?? null, s.productId, s.customerId],
    );
    return names;
  }

  /** `namesOf`, with the customer's row locked for its balance. */
  async namesLockingCustomer(s: Subscription): Promise<RenewalNames | undefined> {
    const [names] = await this.em.execute<RenewalNames[]>(
      `select ${NAMES} from billing.customers c, billing.products p where c.id = ? and p.id = ? for update of c`,
      [s.priceIds[0] ?? null, s.customerId, s.productId],
    );
    return names;
  }

  /**
   * In one statement: the customer's balance in the subscription's currency (a statement of its own
   * after the customer's lock: its snapshot sees entries committed by the transaction the lock waited
   * for), the card to charge (payments/saved-payment-method.repository.ts' rule) and the proration
   * items due at `at`, locked.
   */
  async walletOf(s: Subscription, at: Date): Promise<RenewalWallet> {
    const [wallet] = await this.em.execute<RenewalWallet[]>(
      `select (select coalesce(sum(amount), 0)::text from billing.customer_balance_entries
              where customer_id = ? and currency = ?) as balance, pm.processor_id, pm.processor_customer_id,
            array(${PRORATION_ITEMS_DUE})::text[] as prorations
       from (select 1) one left join lateral (select pm.processor_id, pm.processor_customer_id
         ${CHARGEABLE_METHOD_OF_CUSTOMER}) pm on true`,
      [s.customerId, s.currency, s.id, at, s.customerId],
    );
    return wallet;
  }

  /** How many automatic attempts (renewal and dunning charges) the order has had. */
  async automaticAttempts(orderId: string): Promise<number> {
    const [row] = await this.em.execute<{ n: string }[]>(
      `select count(*) as n from billing.payments where order_id = ? and idempotency_key like 'charge:subscription:%'`,
      [orderId],
    );
    return Number(row.n);
  }

  /** How many manual attempts (the customer's own retries) the order has had. */
  async manualAttempts(orderId: string): Promise<number> {
    const [row] = await this.em.execute<{ n: string }[]>(
      `select count(*) as n from billing.payments where order_id = ? and idempotency_key like 'charge:order:%:manual:%'`,
      [orderId],
    );
    return Number(row.n);
  }

  /**
   * The order (`paid`, or `pending` and due now, its invoice number still to come: `insertEvents` gives
   * it), its items and its payment in one statement (what `createOrder` writes in five, without its events).
   */
  async writeRenewalOrder(o: RenewalOrderRow): Promise<void> {
    const { s } = o;
    const subtotal = o.items.reduce((sum, item) => sum + item.amount, 0n);
    const items = o.items
      .map(() => '(?::text, ?::bigint, ?::bigint, ?::boolean, ?::uuid, ?::int, ?::timestamptz, ?::timestamptz)')
      .join(', ');
    const payment = o.payment ? paymentFieldsOf(o.payment.outcome) : null;
    await this.em.execute(
      `with o as (
         insert into billing.orders (id, organization_id, customer_id, product_id, product_price_id, subscription_id,
           checkout_id, discount_id, status, billing_reason, currency, subtotal_amount, discount_amount, tax_amount,
           applied_balance_amount, refunded_amount, refunded_tax_amount, platform_fee_amount, billing_name,
           billing_address, invoice_number, is_invoice_generated, seats, metadata, custom_field_data,
           next_payment_attempt_at, billing_period_start, created_at, modified_at, tax_behavior, tax_breakdown,
           tax_evidence)
         values (?, ?, ?, ?, ?, ?, null, ?, ?, 'subscription_cycle', ?, ?, ?, ?, ?, 0, 0, 0, ?, ?::jsonb,
           null, false, ?, ?::jsonb, '{}', ?::timestamptz, ?, ?, ?::timestamptz, ?, ?::jsonb, ?::jsonb)
         returning id),
       i as (
         insert into billing.order_items (id, order_id, label, amount, tax_amount, proration, product_price_id,
           position, start_timestamp, end_timestamp, created_at, modified_at)
         select gen_random_uuid(), o.id, v.label, v.amount, v.tax, v.proration, v.price, v.position, v.start_at,
           v.end_at, ?, null
         from o, (values ${items}) as v(label, amount, tax, proration, price, position, start_at, end_at))
       insert into billing.payments (id, organization_id, customer_id, checkout_id, order_id, processor,
         idempotency_key, trigger, status, amount, currency, method, method_metadata, processor_id, decline_reason,
         decline_message, processor_metadata, created_at, modified_at)
       select gen_random_uuid(), ?, ?, null, o.id, 'stripe', ?, 'subscription_cycle', ?, ?, ?, 'card', ?::jsonb, ?, ?, ?,
         '{}', ?, null
       from o where ?::boolean`,
      [
        o.id,
        s.organizationId,
        s.customerId,
        s.productId,
        s.priceIds[0] ?? null,
        s.id,
        o.discountId,
        o.paid ? 'paid' : 'pending',
        s.currency,
        String(subtotal),
        String(o.discountAmount),
        String(o.tax.taxAmount),
        String(o.appliedBalanceAmount),
        o.billingName,
        o.billingAddress ? JSON.stringify(o.billingAddress) : null,
        s.seats,
        JSON.stringify(s.metadata ?? {}),
        o.paid ? null : o.nextAttemptAt,
        o.periodStart,
        o.createdAt,
        o.paid ? o.at : null,
        o.tax.taxBehavior,
        JSON.stringify(o.tax.breakdown),
        o.tax.evidence ? JSON.stringify(o.tax.evidence) : null,
        // The items' created_at comes before their values in the statement's text.
        o.createdAt,
        ...o.items.flatMap((item, position) => [
          item.label,
          String(item.amount),
          String(o.tax.itemTaxes[position] ?? 0n),
          item.proration ?? false,
          item.productPriceId,
          position,
          item.startTimestamp ?? null,
          item.endTimestamp ?? null,
        ]),
        s.organizationId,
        s.customerId,
        o.payment?.key ?? '',
        payment?.status ?? 'failed',
        String(o.payment?.amount ?? 0n),
        s.currency,
        JSON.stringify(payment?.methodMetadata ?? {}),
        payment?.processorId ?? null,
        payment?.declineReason ?? null,
        payment?.declineMessage ?? null,
        o.payment?.createdAt ?? o.createdAt,
        o.payment !== null,
      ],
    );
  }
}
