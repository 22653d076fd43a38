import type { EntityManager } from '@mikro-orm/postgresql';
import { Customer } from '../../../subgraphs/billing/customers/customer.entity.js';
import { SavedPaymentMethod } from '../../../subgraphs/billing/payments/saved-payment-method.entity.js';
import { ProductPrice } from '../../../subgraphs/billing/products/product-price.entity.js';
import { Product } from '../../../subgraphs/billing/products/product.entity.js';
import { Discount } from '../../../subgraphs/billing/discounts/discount.entity.js';
import {
  DiscountDuration,
  DiscountType,
  PriceAmountType,
  RecurringInterval,
  SubscriptionStatus,
} from '../../../subgraphs/billing/shared/enums.js';
import { Subscription } from '../../../subgraphs/billing/subscriptions/subscription.entity.js';
import { call, createTenant, type RunningEnvironment, type Tenant, type TestStack } from '../../support/stack.js';
import { sharedTestStack } from '../../support/shared-stack.js';

/**
 * Shared setup of the plan-change tests: the worker's shared stack (test/support/shared-stack.ts), a sandbox tenant (so the sandbox clock can put us
 * one day into a period), customers with a card saved at the test processor, products and
 * subscriptions written straight through billing's ORM.
 */
export let stack: TestStack;
export let env: RunningEnvironment;
export let base: string;
export let tenant: Tenant;

/** Before this file's tests: the worker's shared stack and this file's own sandbox tenant. */
export function usePlanChangesStack() {
  beforeAll(async () => {
    stack = await sharedTestStack();
    env = stack.sandbox;
    base = env.baseUrl;
    tenant = await createTenant(env);
  });
}

const em = () => env.environment.billing.orm.em.fork() as EntityManager;
export const billingEm = em;

export const api = (method: string, path: string, body?: unknown, token = tenant.oat) =>
  call(base, method, path, { token, body });

/** The organization's clock now (the sandbox clock). */
export async function clockNow(): Promise<Date> {
  const res = await api('GET', '/v1/sandbox/clock');
  return new Date(res.body.now);
}

/** Moves the organization's clock forward (and every due action with it). */
export async function advance(seconds: number): Promise<void> {
  const res = await api('POST', '/v1/sandbox/clock/advance', { seconds });
  expect(res.status).toBe(200);
}

/** A customer whose default card (a Stripe test method name) is saved at the test processor. */
export async function customerWithCard(card = 'pm_card_visa'): Promise<Customer> {
  const m = em();
  const customer = m.create(Customer, {
    organizationId: tenant.organizationId,
    email: `c-${Math.random().toString(36).slice(2, 9)}@example.com`,
    metadata: {},
    createdAt: new Date(),
  } as Customer);
  await m.flush();
  const payments = env.environment.billing.services.payments;
  const processorCustomer = await payments.createCustomer({
    idempotencyKey: `customer:${customer.id}`,
    email: customer.email,
    name: null,
  });
  const setup = await payments.savePaymentMethod({
    idempotencyKey: `setup:${customer.id}`,
    customerId: processorCustomer.id,
    paymentMethod: { kind: 'new', token: card },
  });
  if (setup.status !== 'succeeded') throw new Error(`could not save ${card}`);
  const method = m.create(SavedPaymentMethod, {
    organizationId: tenant.organizationId,
    customerId: customer.id,
    processor: payments.name,
    processorId: setup.paymentMethod.id,
    processorCustomerId: processorCustomer.id,
    brand: setup.paymentMethod.brand,
    last4: setup.paymentMethod.last4,
    createdAt: new Date(),
  } as SavedPaymentMethod);
  await m.flush();
  customer.defaultPaymentMethodId = method.id;
  await m.flush();
  return customer;
}

export interface Plan {
  product: Product;
  price: ProductPrice;
}

/** A monthly plan: a fixed price, or (`perSeat`) a seat price with one volume tier. */
export async function plan(
  name: string,
  amount: number,
  options: { currency?: string; perSeat?: boolean; interval?: RecurringInterval } = {},
): Promise<Plan> {
  const m = em();
  const product = m.create(Product, {
    organizationId: tenant.organizationId,
    name,
    recurringInterval: options.interval ?? RecurringInterval.MONTH,
    recurringIntervalCount: 1,
    metadata: {},
    createdAt: new Date(),
  } as Product);
  const price = m.create(ProductPrice, {
    productId: product.id,
    amountType: options.perSeat ? PriceAmountType.SEAT_BASED : PriceAmountType.FIXED,
    priceCurrency: options.currency ?? 'usd',
    priceAmount: options.perSeat ? null : BigInt(amount),
    seatTiers: options.perSeat
      ? { seat_tier_type: 'volume', tiers: [{ min_seats: 1, max_seats: null, price_per_seat: amount }] }
      : null,
    createdAt: new Date(),
  } as ProductPrice);
  await m.flush();
  return { product, price };
}

/** An active subscription to `p` whose 30-day period starts now on the organization's clock. */
/** A percentage discount, forever (basis points). */
export async function discount(basisPoints: number): Promise<Discount> {
  const m = em();
  const d = m.create(Discount, {
    organizationId: tenant.organizationId,
    name: `${basisPoints / 100} % off`,
    type: DiscountType.PERCENTAGE,
    basisPoints,
    duration: DiscountDuration.FOREVER,
    productIds: [],
    metadata: {},
    createdAt: new Date(),
  } as unknown as Discount);
  await m.flush();
  return d;
}

export async function subscribe(
  customer: Customer,
  p: Plan,
  options: { seats?: number; discountId?: string } = {},
): Promise<Subscription> {
  const start = await clockNow();
  const m = em();
  const seats = options.seats ?? null;
  const perSeat = p.price.seatTiers?.tiers[0]?.price_per_seat;
  const subscription = m.create(Subscription, {
    organizationId: tenant.organizationId,
    customerId: customer.id,
    productId: p.product.id,
    priceIds: [p.price.id],
    amount: perSeat !== undefined ? BigInt(perSeat * (seats ?? 1)) : BigInt(p.price.priceAmount ?? 0n),
    currency: p.price.priceCurrency,
    recurringInterval: RecurringInterval.MONTH,
    recurringIntervalCount: 1,
    status: SubscriptionStatus.ACTIVE,
    startedAt: start,
    currentPeriodStart: start,
    currentPeriodEnd: new Date(start.getTime() + 30 * 86_400_000),
    seats,
    discountId: options.discountId ?? null,
    metadata: {},
    createdAt: start,
  } as Subscription);
  await m.flush();
  return subscription;
}

export const ONE_DAY = 86_400;

/** The subscription's orders as the API lists them (oldest first). */
export async function ordersOf(subscriptionId: string): Promise<any[]> {
  const res = await api('GET', `/v1/orders/?subscription_id=${subscriptionId}&sorting=created_at`);
  expect(res.status).toBe(200);
  return res.body.items;
}

/** Payment rows of a customer (every charge attempt that was recorded). */
export async function paymentsOf(customerId: string) {
  return em().execute<{ status: string; amount: string; order_id: string | null; currency: string }[]>(
    'select status, amount::text, order_id, currency from billing.payments where customer_id = ? order by created_at',
    [customerId],
  );
}

export async function balanceOf(customerId: string, currency = 'usd'): Promise<number> {
  const [row] = await em().execute<{ b: string }[]>(
    'select coalesce(sum(amount), 0)::text as b from billing.customer_balance_entries where customer_id = ? and currency = ?',
    [customerId, currency],
  );
  return Number(row.b);
}

/** An order as the preview describes it. */
export function asPreview(order: any) {
  return {
    currency: order.currency,
    items: order.items.map((i: any) => ({ label: i.label, amount: i.amount, proration: i.proration })),
    subtotal_amount: order.subtotal_amount,
    discount_amount: order.discount_amount,
    net_amount: order.net_amount,
    tax_amount: order.tax_amount,
    total_amount: order.total_amount,
  };
}
