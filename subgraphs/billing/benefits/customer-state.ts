import { Field, Float, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { CustomerType } from '../customers/customer.type.js';
import { Metadata, MinorUnits } from '../shared/scalars.js';
import { BenefitProperties } from './benefit.type.js';

const SIMPLE = { simpleResolvers: true } as const;

@ObjectType('CustomerStateSubscription', SIMPLE)
export class CustomerStateSubscriptionType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => Metadata) metadata!: Record<string, string | number | boolean>;
  @Field(() => String, { description: 'active | trialing' }) status!: string;
  @Field(() => MinorUnits) amount!: bigint;
  @Field() currency!: string;
  @Field() recurringInterval!: string;
  @Field(() => GraphQLISODateTime) currentPeriodStart!: Date;
  @Field(() => GraphQLISODateTime) currentPeriodEnd!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) trialStart!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) trialEnd!: Date | null;
  @Field() cancelAtPeriodEnd!: boolean;
  @Field(() => GraphQLISODateTime, { nullable: true }) canceledAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) startedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) endsAt!: Date | null;
  @Field(() => ID) productId!: string;
  @Field(() => ID, { nullable: true }) discountId!: string | null;
  @Field(() => Int, { nullable: true, description: 'Seats of a seat-based subscription, null otherwise.' })
  seats!: number | null;
  @Field(() => Int, { nullable: true, description: 'Always null: no unit-based prices here.' }) units!: number | null;
}

@ObjectType('CustomerStateBenefitGrant', SIMPLE)
export class CustomerStateBenefitGrantType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => GraphQLISODateTime) grantedAt!: Date;
  @Field(() => ID) benefitId!: string;
  @Field() benefitType!: string;
  @Field(() => Metadata) benefitMetadata!: Record<string, string | number | boolean>;
  @Field(() => BenefitProperties) properties!: Record<string, unknown>;
}

/** Polar's CustomerStateMeter: one of the customer's meters with its units since the last reset. */
@ObjectType('CustomerStateMeter', SIMPLE)
export class CustomerStateMeterType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => ID) meterId!: string;
  @Field(() => Float) consumedUnits!: number;
  @Field(() => Float) creditedUnits!: number;
  @Field(() => Float, { description: 'credited − consumed; negative once usage passes the credits.' }) balance!: number;
}

/**
 * What a customer has right now (docs/polar/resources.md#customer-state): the customer, its active and trialing
 * subscriptions, the benefits it holds with their metadata, and its meters (docs/usage-billing.md#customer-meters).
 */
@ObjectType('CustomerState', SIMPLE)
export class CustomerStateType {
  @Field(() => CustomerType) customer!: CustomerType;
  @Field(() => [CustomerStateSubscriptionType]) activeSubscriptions!: CustomerStateSubscriptionType[];
  @Field(() => [CustomerStateBenefitGrantType]) grantedBenefits!: CustomerStateBenefitGrantType[];
  @Field(() => [CustomerStateMeterType]) activeMeters!: CustomerStateMeterType[];
}
