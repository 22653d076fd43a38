import { SubscriptionStatusEnum } from '../shared/status-enums.js';
import { Directive, Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toBigInt, toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import type { Customer as CustomerEntity } from '../customers/customer.entity.js';
import { CustomerType } from '../customers/customer.type.js';
import type { Discount as DiscountEntity } from '../discounts/discount.entity.js';
import { DiscountType } from '../discounts/discount.type.js';
import { OrganizationRef } from '../organizations/organization.type.js';
import {
  ProductPriceType,
  ProductType,
  priceFromRow,
  productFromRow,
  type ProductRow,
} from '../products/product.type.js';
import { Metadata, MinorUnits } from '../shared/scalars.js';
import type { PendingUpdate, Subscription as SubscriptionEntity } from './subscription.entity.js';

const SIMPLE = { simpleResolvers: true } as const;

/** A product or seat change scheduled for the next period (docs/polar/resources.md#subscription PendingSubscriptionUpdate). */
@ObjectType('PendingSubscriptionUpdate', SIMPLE)
export class PendingSubscriptionUpdateType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => GraphQLISODateTime) appliesAt!: Date;
  @Field(() => ID, { nullable: true }) productId!: string | null;
  @Field(() => Int, { nullable: true }) seats!: number | null;
  @Field(() => Int, { nullable: true, description: 'Always null: no unit-based prices here.' }) units!: number | null;

  static fromStored(p: PendingUpdate | null): PendingSubscriptionUpdateType | null {
    if (!p) return null;
    return {
      id: p.id,
      createdAt: new Date(p.created_at),
      modifiedAt: null,
      appliesAt: new Date(p.applies_at),
      productId: p.product_id,
      seats: p.seats,
      units: null,
    };
  }
}

/** What a subscription embeds, already shaped. */
export interface SubscriptionEmbeds {
  customer: CustomerType;
  product: ProductType;
  prices: ProductPriceType[];
  discount: DiscountType | null;
}

/**
 * A customer's subscription (docs/polar/resources.md#subscription). Named `BillingSubscription`: a type named
 * `Subscription` would become the supergraph's subscription root. The embedded `customer`, `product`
 * (with its prices), `prices` and `discount` are plain fields: the read statement returns them with
 * the subscription (subscription.read.ts), so no resolver runs per row.
 */
@ObjectType('BillingSubscription', SIMPLE)
@Directive('@key(fields: "id")')
export class BillingSubscriptionType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => MinorUnits) amount!: bigint;
  @Field() currency!: string;
  @Field(() => String, { description: 'day | week | month | year' }) recurringInterval!: string;
  @Field(() => Int) recurringIntervalCount!: number;
  @Field(() => SubscriptionStatusEnum) status!: string;
  @Field(() => GraphQLISODateTime) currentPeriodStart!: Date;
  @Field(() => GraphQLISODateTime) currentPeriodEnd!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) currentMeterPeriodStart!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) currentMeterPeriodEnd!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) trialStart!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) trialEnd!: Date | null;
  @Field() cancelAtPeriodEnd!: boolean;
  @Field(() => GraphQLISODateTime, { nullable: true }) canceledAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) startedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) endsAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) endedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) pastDueAt!: Date | null;
  @Field() pauseAtPeriodEnd!: boolean;
  @Field(() => GraphQLISODateTime, { nullable: true }) pausedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) resumesAt!: Date | null;
  @Field(() => ID) customerId!: string;
  @Field(() => ID) productId!: string;
  @Field(() => ID, { nullable: true }) discountId!: string | null;
  @Field(() => ID, { nullable: true }) checkoutId!: string | null;
  @Field(() => Int, { nullable: true }) seats!: number | null;
  @Field(() => Int, { nullable: true, description: 'Units of a unit-based price: always null, no such prices here.' })
  units!: number | null;
  @Field(() => String, { nullable: true, description: 'CustomerCancellationReason' }) customerCancellationReason!:
    | string
    | null;
  @Field(() => String, { nullable: true }) customerCancellationComment!: string | null;
  @Field(() => Metadata) metadata!: Record<string, string | number | boolean>;
  @Field(() => Metadata, { description: "Its checkout's answers to the product's custom fields." })
  customFieldData!: Record<string, unknown>;
  /** Resolved by subscription-meters.resolver.ts. */
  meters?: Record<string, unknown>[];
  @Field(() => PendingSubscriptionUpdateType, { nullable: true }) pendingUpdate!: PendingSubscriptionUpdateType | null;
  @Field(() => ID) organizationId!: string;
  @Field(() => CustomerType) customer!: CustomerType;
  @Field(() => ProductType) product!: ProductType;
  @Field(() => [ProductPriceType], { description: 'The prices billed (replaces the deprecated price and price_id).' })
  prices!: ProductPriceType[];
  @Field(() => DiscountType, {
    nullable: true,
    description: 'The discount applied (Polar embeds it without `products`).',
  })
  discount!: DiscountType | null;
  @Field(() => OrganizationRef, { description: 'The organization (resolved by the identity subgraph).' })
  organization!: OrganizationRef;

  /**
   * THE public shape of a subscription: GraphQL returns it (and REST maps the GraphQL result), the
   * outbox payloads are built from it (subscription.wire.ts). `s` is a managed entity or the row JSON
   * of the read path.
   */
  static fromEntity(s: Readonly<SubscriptionEntity>, embeds: SubscriptionEmbeds): BillingSubscriptionType {
    const date = toDate;
    return {
      id: s.id,
      createdAt: date(s.createdAt),
      modifiedAt: date(s.modifiedAt),
      amount: toBigInt(s.amount),
      currency: s.currency,
      recurringInterval: s.recurringInterval,
      recurringIntervalCount: s.recurringIntervalCount,
      status: s.status,
      currentPeriodStart: date(s.currentPeriodStart),
      currentPeriodEnd: date(s.currentPeriodEnd),
      currentMeterPeriodStart: null,
      currentMeterPeriodEnd: null,
      trialStart: date(s.trialStart),
      trialEnd: date(s.trialEnd),
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      canceledAt: date(s.canceledAt),
      startedAt: date(s.startedAt),
      endsAt: date(s.endsAt),
      endedAt: date(s.endedAt),
      pastDueAt: date(s.pastDueAt),
      pauseAtPeriodEnd: s.pauseAtPeriodEnd,
      pausedAt: date(s.pausedAt),
      resumesAt: date(s.resumesAt),
      customerId: s.customerId,
      productId: s.productId,
      discountId: s.discountId,
      checkoutId: s.checkoutId,
      seats: s.seats,
      units: null,
      customerCancellationReason: s.customerCancellationReason,
      customerCancellationComment: s.customerCancellationComment,
      metadata: s.metadata ?? {},
      customFieldData: s.customFieldData ?? {},
      meters: [],
      pendingUpdate: PendingSubscriptionUpdateType.fromStored(s.pendingUpdate),
      organizationId: s.organizationId,
      ...embeds,
      organization: { id: s.organizationId },
    };
  }

  /** A row of the read path (subscription.read.ts): the subscription and what it embeds, as JSON. */
  static fromRow(row: ReadRow): BillingSubscriptionType {
    const customer = row.customer as CustomerEntity | null;
    const product = row.product as ProductRow | null;
    if (!customer || !product)
      throw new Error(`subscription ${(row.r as { id: string }).id}: customer or product missing`);
    return BillingSubscriptionType.fromEntity(row.r as SubscriptionEntity, {
      customer: CustomerType.fromEntity(customer),
      product: productFromRow(product),
      prices: (row.prices as Record<string, unknown>[]).map(priceFromRow),
      discount: row.discount ? DiscountType.fromEntity(row.discount as DiscountEntity) : null,
    });
  }
}

@ObjectType('BillingSubscriptionList', SIMPLE)
export class BillingSubscriptionList extends ListResource(BillingSubscriptionType) {}
