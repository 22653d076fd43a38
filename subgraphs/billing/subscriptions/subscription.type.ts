import { Directive, Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { Metadata, MinorUnits } from '../shared/scalars.js';
import type { PendingUpdate, Subscription as SubscriptionEntity } from './subscription.entity.js';

const SIMPLE = { simpleResolvers: true } as const;

/** A product or seat change scheduled for the next period (polar-api.md §3.4 PendingSubscriptionUpdate). */
@ObjectType('PendingSubscriptionUpdate', SIMPLE)
export class PendingSubscriptionUpdateType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => GraphQLISODateTime) appliesAt!: Date;
  @Field(() => ID, { nullable: true }) productId!: string | null;
  @Field(() => Int, { nullable: true }) seats!: number | null;

  static fromStored(p: PendingUpdate | null): PendingSubscriptionUpdateType | null {
    if (!p) return null;
    return {
      id: p.id,
      createdAt: new Date(p.created_at),
      modifiedAt: null,
      appliesAt: new Date(p.applies_at),
      productId: p.product_id,
      seats: p.seats,
    };
  }
}

/**
 * A customer's subscription (polar-api.md §3.4). Named `BillingSubscription`: a type named
 * `Subscription` would become the supergraph's subscription root. The embedded `customer`, `product`,
 * `discount`, `prices` and `organization` are field resolvers (subscription.resolver.ts) backed by
 * per-request loaders, so a page of any size costs a fixed number of queries.
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
  @Field(() => String, { description: 'SubscriptionStatus' }) status!: string;
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
  @Field(() => String, { nullable: true, description: 'CustomerCancellationReason' }) customerCancellationReason!:
    | string
    | null;
  @Field(() => String, { nullable: true }) customerCancellationComment!: string | null;
  @Field(() => Metadata) metadata!: Record<string, string | number | boolean>;
  @Field(() => Metadata, { description: 'Always empty: custom fields are not implemented.' }) customFieldData!: Record<
    string,
    unknown
  >;
  @Field(() => [Metadata], { description: 'Always empty: meters are not implemented.' }) meters!: Record<
    string,
    unknown
  >[];
  @Field(() => PendingSubscriptionUpdateType, { nullable: true }) pendingUpdate!: PendingSubscriptionUpdateType | null;
  @Field(() => ID) organizationId!: string;
  /** Not a field: the prices billed, in order, for the `prices` resolver. */
  priceIds!: readonly string[];

  static fromEntity(s: Readonly<SubscriptionEntity>): BillingSubscriptionType {
    return {
      id: s.id,
      createdAt: s.createdAt,
      modifiedAt: s.modifiedAt,
      amount: BigInt(s.amount),
      currency: s.currency,
      recurringInterval: s.recurringInterval,
      recurringIntervalCount: s.recurringIntervalCount,
      status: s.status,
      currentPeriodStart: s.currentPeriodStart,
      currentPeriodEnd: s.currentPeriodEnd,
      currentMeterPeriodStart: null,
      currentMeterPeriodEnd: null,
      trialStart: s.trialStart,
      trialEnd: s.trialEnd,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      canceledAt: s.canceledAt,
      startedAt: s.startedAt,
      endsAt: s.endsAt,
      endedAt: s.endedAt,
      pastDueAt: s.pastDueAt,
      pauseAtPeriodEnd: s.pauseAtPeriodEnd,
      pausedAt: s.pausedAt,
      resumesAt: s.resumesAt,
      customerId: s.customerId,
      productId: s.productId,
      discountId: s.discountId,
      checkoutId: s.checkoutId,
      seats: s.seats,
      customerCancellationReason: s.customerCancellationReason,
      customerCancellationComment: s.customerCancellationComment,
      metadata: s.metadata ?? {},
      customFieldData: {},
      meters: [],
      pendingUpdate: PendingSubscriptionUpdateType.fromStored(s.pendingUpdate),
      organizationId: s.organizationId,
      priceIds: s.priceIds ?? [],
    };
  }
}

@ObjectType('BillingSubscriptionList', SIMPLE)
export class BillingSubscriptionList extends ListResource(BillingSubscriptionType) {}
