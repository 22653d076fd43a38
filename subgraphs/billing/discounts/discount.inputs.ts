import { Field, ID, InputType, Int } from 'type-graphql';
import { GraphQLISODateTime } from 'type-graphql';
import { Metadata, MinorUnits } from '../shared/scalars.js';

@InputType('DiscountAmountInput')
export class DiscountAmountInput {
  @Field() currency!: string;
  @Field(() => MinorUnits) amount!: bigint;
}

@InputType()
abstract class DiscountFields {
  @Field(() => String, { nullable: true }) code?: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) startsAt?: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) endsAt?: Date | null;
  @Field(() => Int, { nullable: true }) maxRedemptions?: number | null;
  @Field(() => Int, { nullable: true }) maxRedemptionsPerCustomer?: number | null;
  @Field(() => Int, { nullable: true }) durationInMonths?: number | null;
  @Field(() => MinorUnits, { nullable: true, description: 'fixed (deprecated in Polar: use amounts)' }) amount?:
    | bigint
    | null;
  @Field(() => String, { nullable: true, description: 'fixed (deprecated in Polar: use amounts)' }) currency?:
    | string
    | null;
  @Field(() => [DiscountAmountInput], { nullable: true, description: 'fixed: one currency is supported' }) amounts?:
    | DiscountAmountInput[]
    | null;
  @Field(() => Int, { nullable: true, description: 'percentage: 1–10000 (100 = 1%)' }) basisPoints?: number | null;
  @Field(() => [ID], { nullable: true, description: 'Restrict to these products of the same organization.' }) products?:
    | string[]
    | null;
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, string | number | boolean> | null;
}

@InputType('CreateDiscountInput')
export class CreateDiscountInput extends DiscountFields {
  @Field(() => ID, { nullable: true }) organizationId?: string | null;
  @Field() name!: string;
  @Field(() => String, { description: 'fixed | percentage' }) type!: string;
  @Field(() => String, { description: 'once | forever | repeating' }) duration!: string;
}

/** Every field optional; absent fields are left as they are, explicit nulls clear nullable ones. */
@InputType('UpdateDiscountInput')
export class UpdateDiscountInput extends DiscountFields {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) type?: string | null;
  @Field(() => String, { nullable: true }) duration?: string | null;
}
