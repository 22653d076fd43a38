import { PolarRequestValidationError } from '../../../kit/errors.js';
import { prorate } from '../../../kit/money/proration.js';
import { discountAmount, type DiscountTerms } from '../../../kit/money/discounts.js';
import { DiscountRepository } from '../discounts/discount.repository.js';
import { ProductRepository } from '../products/product.repository.js';
import { type DiscountDuration, discountAppliesTo } from '../pricing/discount-duration.js';
import type { OrderBillingReason } from '../orders/order.entity.js';
import {
  type ChangeDirection,
  type ChangePreview,
  changeDirection,
  type Plan,
  type PlanPrice,
  type PreviewItem,
  previewChange,
} from '../pricing/proration.js';
import type { BilledTerms, PaidChange, ProrationBehavior } from './subscription.charger.js';
import type { Subscription } from './subscription.entity.js';
import type { OrderTax, SaleTax } from '../orders/sale-tax.js';
import { taxPreview } from './plan-change-tax.js';

/**
 * What a plan or seat change costs, computed once for both the preview
 * (`POST /v1/subscriptions/{id}/update-preview`) and the change itself (`PlanChangeCharger`), so the
 * preview equals the order the `PATCH` creates to the cent. The money is pricing/proration.ts's
 * (BigInt, by the second, the one rounding rule); this file only turns a subscription and its two
 * terms into `Plan`s and picks the behaviour that really applies.
 */
export interface PlanChangeQuote {
  /** The behaviour that applies: a change of interval or a reset is billed now (`invoice`). */
  behavior: 'invoice' | 'prorate' | 'next_period';
  /** The period restarts at the change (a reset, a change of interval). */
  resetsPeriod: boolean;
  billingReason: OrderBillingReason;
  /** The order's amounts, tax included (plan-change-tax.ts). */
  preview: ChangePreview;
  /** The tax of that order (null: no tax service wired). */
  tax: OrderTax | null;
}

const sameInterval = (a: BilledTerms, b: BilledTerms) =>
  a.recurringInterval === b.recurringInterval && (a.recurringIntervalCount ?? 1) === (b.recurringIntervalCount ?? 1);

/**
 * The plan a subscription bills on one side of a change. A seat price whose every seat costs the same
 * on both sides (flat or volume tiers within one tier) is one `seat` line, so a change of seats alone
 * is Polar's single quantity line; anything else is one fixed line of the terms' amount.
 */
function plans(s: Subscription, from: BilledTerms, to: BilledTerms, labels: { from: string; to: string }) {
  const side = (terms: BilledTerms, price: PlanPrice): Plan => ({
    currency: terms.currency,
    interval: terms.recurringInterval ?? s.recurringInterval,
    intervalCount: terms.recurringIntervalCount ?? s.recurringIntervalCount,
    prices: [price],
    seats: terms.seats ?? undefined,
  });
  const perSeat = uniformSeatPrice(from, to);
  if (perSeat !== null)
    return {
      current: side(from, { label: labels.from, type: 'seat', amount: perSeat }),
      next: side(to, { label: labels.to, type: 'seat', amount: perSeat }),
    };
  return {
    current: side(from, { label: labels.from, type: 'fixed', amount: from.amount }),
    next: side(to, { label: labels.to, type: 'fixed', amount: to.amount }),
  };
}

function uniformSeatPrice(from: BilledTerms, to: BilledTerms): bigint | null {
  if (from.productId !== to.productId || !from.seats || !to.seats || from.seats === to.seats) return null;
  const a = BigInt(from.seats);
  const b = BigInt(to.seats);
  if (from.amount % a !== 0n || to.amount % b !== 0n) return null;
  return from.amount / a === to.amount / b ? from.amount / a : null;
}

/**
 * The subscription's discount as the money functions see it: now (taken off both sides of the
 * proration, as the subscription keeps it through the change) and for the period after this one (a
 * `once` discount is used up; a repeating one counts its months from the subscription's start).
 */
async function discountsOf(change: PaidChange): Promise<{ now: DiscountTerms | null; next: DiscountTerms | null }> {
  const s = change.subscription;
  if (!s.discountId) return { now: null, next: null };
  const discount = await new DiscountRepository(change.em).findById(s.discountId);
  if (!discount) return { now: null, next: null };
  const terms: DiscountTerms =
    discount.type === 'fixed'
      ? { type: 'fixed', amounts: { [discount.currency ?? s.currency]: BigInt(discount.amount ?? 0n) } }
      : { type: 'percentage', basisPoints: discount.basisPoints ?? 0 };
  const duration: DiscountDuration =
    discount.duration === 'repeating'
      ? { duration: 'repeating', durationInMonths: discount.durationInMonths ?? 1 }
      : { duration: discount.duration === 'once' ? 'once' : 'forever' };
  const first = s.trialEnd ?? s.startedAt ?? s.currentPeriodStart;
  return { now: terms, next: discountAppliesTo(duration, first, s.currentPeriodEnd) ? terms : null };
}

async function productNames(change: PaidChange): Promise<{ from: string; to: string }> {
  const ids = [...new Set([change.from.productId, change.to.productId])];
  const products = await new ProductRepository(change.em).findByIds(ids);
  const name = (id: string) => products.find(p => p.id === id)?.name ?? 'Subscription';
  return { from: name(change.from.productId), to: name(change.to.productId) };
}

/** Upgrade or downgrade, by the price per period (pricing/proration.ts `changeDirection`). */
export function directionOf(s: Subscription, from: BilledTerms, to: BilledTerms): ChangeDirection {
  const { current, next } = plans(s, from, to, { from: '', to: '' });
  return changeDirection(current, next);
}

function sum(items: PreviewItem[]): bigint {
  return items.reduce((total, item) => total + item.amount, 0n);
}

function immediate(at: Date, currency: string, items: PreviewItem[], discount = 0n): ChangePreview {
  const subtotal = sum(items);
  return {
    applies_at: at,
    currency,
    items,
    subtotal_amount: subtotal,
    discount_amount: discount,
    net_amount: subtotal - discount,
    tax_amount: 0n,
    total_amount: subtotal - discount,
  };
}

/**
 * The quote of one change, by behaviour (docs/subscriptions.md#subscription-updates):
 * - the end of a trial: the first paid period, in full, now (a `subscription_cycle` order);
 * - `next_period`: the renewal order at the new plan;
 * - `reset`, or `invoice`/`prorate` across billing intervals: billed now, the period restarts at the
 *   change: a credit of the unused time and the whole new period (Polar promotes such a change);
 * - `invoice`: the proration lines, billed now (a `subscription_update` order);
 * - `prorate`: the proration lines, stored for the next renewal order (the preview shows that order).
 * The subscription's discount is taken off both sides of the proration lines, and off the renewal's
 * regular lines while it still applies then (`discount_amount`).
 */
export async function quotePlanChange(change: PaidChange, sale?: SaleTax | null): Promise<PlanChangeQuote> {
  const quote = await untaxedQuote(change);
  const taxed = await taxPreview(change.em, change.subscription, quote.preview, sale);
  return { ...quote, ...taxed };
}

async function untaxedQuote(change: PaidChange): Promise<Omit<PlanChangeQuote, 'tax'>> {
  const { subscription: s, from, to, now } = change;
  if (from.currency !== to.currency)
    throw new PolarRequestValidationError([
      {
        type: 'value_error',
        loc: ['body', 'product_id'],
        msg: `Product has no price in the subscription's currency (${from.currency}).`,
        input: to.productId,
      },
    ]);
  const labels = await productNames(change);
  const discounts = await discountsOf(change);
  const off = (amount: bigint) => (discounts.now ? discountAmount(discounts.now, amount, to.currency) : 0n);
  if (change.kind === 'trial_end')
    return {
      behavior: 'invoice',
      resetsPeriod: false,
      billingReason: 'subscription_cycle',
      preview: immediate(now, to.currency, [{ label: labels.to, amount: to.amount, proration: false }], off(to.amount)),
    };
  const { current, next } = plans(s, from, to, labels);
  const period = { start: s.currentPeriodStart, end: s.currentPeriodEnd };
  const base = { current, next, period, at: now, discount: discounts.now, nextPeriodDiscount: discounts.next };
  if (change.behavior === 'next_period')
    return {
      behavior: 'next_period',
      resetsPeriod: false,
      billingReason: 'subscription_cycle',
      preview: previewChange({ ...base, behavior: 'next_period' }),
    };
  if (change.behavior === 'reset' || !sameInterval(from, to)) {
    const credits = previewChange({ ...base, next: { ...current, prices: [] }, behavior: 'invoice' }).items;
    const fresh = { start: now, end: new Date(now.getTime() + 1000) };
    const debit = prorate(to.amount - off(to.amount), fresh, now);
    const items =
      debit === 0n
        ? credits
        : [...credits, { label: `Remaining time on ${labels.to}`, amount: debit, proration: true }];
    return {
      behavior: 'invoice',
      resetsPeriod: true,
      billingReason: 'subscription_update',
      preview: immediate(now, to.currency, items),
    };
  }
  const behavior: 'invoice' | 'prorate' = change.behavior;
  return {
    behavior,
    resetsPeriod: false,
    billingReason: behavior === 'invoice' ? 'subscription_update' : 'subscription_cycle',
    preview: previewChange({ ...base, behavior }),
  };
}

/** The quote when nothing is billed (free products, a trialing subscription, a field-only update). */
export function emptyQuote(s: Subscription, behavior: ProrationBehavior | null, now: Date): ChangePreview {
  return immediate(behavior === 'next_period' ? s.currentPeriodEnd : now, s.currency, []);
}
