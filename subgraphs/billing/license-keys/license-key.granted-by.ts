import { Ctx, Field, FieldResolver, GraphQLISODateTime, ID, ObjectType, Resolver, Root } from 'type-graphql';
import { toDate } from '../../../kit/database/read/values.js';
import { readerOf } from '../../../kit/request-context.js';
import type { BillingContext } from '../context.js';
import { isPaidOrderStatus } from '../orders/order.entity.js';
import type { SubscriptionStatus } from '../shared/enums.js';
import { SubscriptionStatusEnum } from '../shared/status-enums.js';
import { LicenseKeyType } from './license-key.type.js';

const SIMPLE = { simpleResolvers: true } as const;

/** Polar's LicenseKeySubscription: the subscription whose benefit grant issued the key. */
@ObjectType('LicenseKeySubscription', SIMPLE)
export class LicenseKeySubscriptionType {
  @Field(() => ID) id!: string;
  @Field(() => SubscriptionStatusEnum) status!: SubscriptionStatus;
  @Field(() => GraphQLISODateTime) currentPeriodStart!: Date;
  @Field(() => GraphQLISODateTime) currentPeriodEnd!: Date;
  @Field() cancelAtPeriodEnd!: boolean;
  @Field(() => GraphQLISODateTime, { nullable: true }) endsAt!: Date | null;
}

/** Polar's LicenseKeyOrder: the one-time order whose benefit grant issued the key. */
@ObjectType('LicenseKeyOrder', SIMPLE)
export class LicenseKeyOrderType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field() status!: string;
  @Field({ description: 'Paid, refunded or partially refunded.' }) paid!: boolean;
}

/**
 * What granted a key (API version 2027-01's `subscription`/`order`, docs/api-versions.md): its benefit
 * grant names a subscription or a one-time order, never both. Resolved only where an operation selects
 * it (validate and activate: one key each), so lists pay nothing for it.
 */
@Resolver(() => LicenseKeyType)
export class LicenseKeyGrantedByResolver {
  @FieldResolver(() => LicenseKeySubscriptionType, { nullable: true })
  async grantingSubscription(
    @Root() key: LicenseKeyType,
    @Ctx() ctx: BillingContext,
  ): Promise<LicenseKeySubscriptionType | null> {
    const [row] = await readerOf(ctx).execute(
      `select s.id, s.status, s.current_period_start, s.current_period_end, s.cancel_at_period_end, s.ends_at
         from billing.benefit_grants g join billing.subscriptions s on s.id = g.subscription_id
        where g.id = ?`,
      [key.grantId],
    );
    if (!row) return null;
    return {
      id: row.id,
      status: row.status,
      currentPeriodStart: toDate(row.current_period_start)!,
      currentPeriodEnd: toDate(row.current_period_end)!,
      cancelAtPeriodEnd: row.cancel_at_period_end,
      endsAt: toDate(row.ends_at),
    };
  }

  @FieldResolver(() => LicenseKeyOrderType, { nullable: true })
  async grantingOrder(@Root() key: LicenseKeyType, @Ctx() ctx: BillingContext): Promise<LicenseKeyOrderType | null> {
    const [row] = await readerOf(ctx).execute(
      `select o.id, o.created_at, o.status
         from billing.benefit_grants g join billing.orders o on o.id = g.order_id
        where g.id = ?`,
      [key.grantId],
    );
    if (!row) return null;
    return {
      id: row.id,
      createdAt: toDate(row.created_at)!,
      status: row.status,
      paid: isPaidOrderStatus(row.status),
    };
  }
}
