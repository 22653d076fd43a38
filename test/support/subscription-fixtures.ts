import type { EntityManager } from '@mikro-orm/postgresql';
import { Customer } from '../../subgraphs/billing/customers/customer.entity.js';
import { Discount } from '../../subgraphs/billing/discounts/discount.entity.js';
import { ProductPrice } from '../../subgraphs/billing/products/product-price.entity.js';
import { Product } from '../../subgraphs/billing/products/product.entity.js';
import {
  type CustomerCancellationReason,
  DiscountDuration,
  DiscountType,
  PriceAmountType,
  RecurringInterval,
  SubscriptionStatus,
} from '../../subgraphs/billing/shared/enums.js';
import { Subscription } from '../../subgraphs/billing/subscriptions/subscription.entity.js';
import type { RunningEnvironment } from './stack.js';

/**
 * Rows of the billing subgraph written straight through its ORM, for tests that are about reading
 * subscriptions (list filters, sorting, export, query counts) rather than about creating them.
 */
export class BillingFixtures {
  constructor(private readonly env: RunningEnvironment) {}

  private em(): EntityManager {
    return this.env.environment.billing.orm.em.fork() as EntityManager;
  }

  async product(
    organizationId: string,
    options: {
      name?: string;
      amount?: number | null;
      interval?: RecurringInterval | null;
      count?: number;
      amountType?: PriceAmountType;
    } = {},
  ): Promise<{ product: Product; price: ProductPrice }> {
    const em = this.em();
    const now = new Date();
    const interval = options.interval === undefined ? RecurringInterval.MONTH : options.interval;
    const product = em.create(Product, {
      organizationId,
      name: options.name ?? `Plan ${Math.random().toString(36).slice(2, 7)}`,
      recurringInterval: interval,
      recurringIntervalCount: interval ? (options.count ?? 1) : null,
      metadata: {},
      createdAt: now,
    } as Product);
    const amountType = options.amountType ?? PriceAmountType.FIXED;
    const price = em.create(ProductPrice, {
      productId: product.id,
      amountType,
      priceCurrency: 'usd',
      priceAmount: amountType === PriceAmountType.FIXED ? BigInt(options.amount ?? 0) : null,
      minimumAmount: amountType === PriceAmountType.CUSTOM ? 0n : null,
      createdAt: now,
    } as ProductPrice);
    await em.flush();
    return { product, price };
  }

  async customer(
    organizationId: string,
    options: { email?: string; externalId?: string | null; name?: string | null } = {},
  ): Promise<Customer> {
    const em = this.em();
    const customer = em.create(Customer, {
      organizationId,
      email: options.email ?? `c-${Math.random().toString(36).slice(2, 9)}@example.com`,
      externalId: options.externalId ?? null,
      name: options.name ?? null,
      metadata: {},
      createdAt: new Date(),
    } as Customer);
    await em.flush();
    return customer;
  }

  async discount(organizationId: string, name: string): Promise<Discount> {
    const em = this.em();
    const discount = em.create(Discount, {
      organizationId,
      name,
      type: DiscountType.PERCENTAGE,
      basisPoints: 1000,
      duration: DiscountDuration.FOREVER,
      productIds: [],
      metadata: {},
      createdAt: new Date(),
    } as unknown as Discount);
    await em.flush();
    return discount;
  }

  async subscription(fields: {
    organizationId: string;
    customerId: string;
    productId: string;
    priceIds: string[];
    status?: SubscriptionStatus;
    startedAt?: Date;
    amount?: number;
    discountId?: string | null;
    cancelAtPeriodEnd?: boolean;
    canceledAt?: Date | null;
    endsAt?: Date | null;
    endedAt?: Date | null;
    reason?: CustomerCancellationReason | null;
    metadata?: Record<string, string | number | boolean>;
    currentPeriodEnd?: Date;
    seats?: number | null;
  }): Promise<Subscription> {
    const em = this.em();
    const started = fields.startedAt ?? new Date();
    const subscription = em.create(Subscription, {
      organizationId: fields.organizationId,
      customerId: fields.customerId,
      productId: fields.productId,
      priceIds: fields.priceIds,
      amount: BigInt(fields.amount ?? 0),
      currency: 'usd',
      recurringInterval: RecurringInterval.MONTH,
      recurringIntervalCount: 1,
      status: fields.status ?? SubscriptionStatus.ACTIVE,
      startedAt: started,
      currentPeriodStart: started,
      currentPeriodEnd: fields.currentPeriodEnd ?? new Date(started.getTime() + 30 * 86_400_000),
      discountId: fields.discountId ?? null,
      cancelAtPeriodEnd: fields.cancelAtPeriodEnd ?? false,
      canceledAt: fields.canceledAt ?? null,
      endsAt: fields.endsAt ?? null,
      endedAt: fields.endedAt ?? null,
      customerCancellationReason: fields.reason ?? null,
      metadata: fields.metadata ?? {},
      seats: fields.seats ?? null,
      createdAt: started,
    } as Subscription);
    await em.flush();
    return subscription;
  }
}
