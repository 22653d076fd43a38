import { Field, ID, InputType } from 'type-graphql';
import { Metadata, MinorUnits } from '../shared/scalars.js';

@InputType('RefundFilter')
export class RefundFilterInput {
  @Field(() => [ID], { nullable: true }) id?: string[] | null;
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [ID], { nullable: true }) orderId?: string[] | null;
  @Field(() => [ID], { nullable: true }) subscriptionId?: string[] | null;
  @Field(() => [ID], { nullable: true }) customerId?: string[] | null;
  @Field(() => [String], { nullable: true }) externalCustomerId?: string[] | null;
  @Field(() => Boolean, { nullable: true }) succeeded?: boolean | null;
}

/** Polar's RefundCreate. */
@InputType('RefundCreateInput')
export class RefundCreateInput {
  @Field(() => ID) orderId!: string;
  @Field(() => String, {
    description: 'duplicate | fraudulent | customer_request | service_disruption | satisfaction_guarantee | other',
  })
  reason!: string;
  @Field(() => MinorUnits, { description: 'Net of tax, > 0, at most the order’s refundable amount.' })
  amount!: bigint;
  @Field(() => String, { nullable: true }) comment?: string | null;
  @Field(() => Boolean, { nullable: true }) revokeBenefits?: boolean | null;
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, string | number | boolean> | null;
}
