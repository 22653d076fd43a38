import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toBigInt, toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { Metadata, MinorUnits } from '../shared/scalars.js';
import type { Payment } from './payment.entity.js';

/** One charge attempt (Polar's CardPayment): `processor` is `stripe` whatever moved the money. */
@ObjectType('Payment', { simpleResolvers: true })
export class PaymentType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field() processor!: string;
  @Field(() => String, { description: 'pending | succeeded | failed' }) status!: string;
  @Field(() => String, {
    nullable: true,
    description:
      'What started the attempt: purchase | subscription_cycle | retry_dunning | retry_customer | retry_payment_method_update | retry_admin',
  })
  trigger!: string | null;
  @Field(() => MinorUnits) amount!: bigint;
  @Field() currency!: string;
  @Field() method!: string;
  @Field(() => String, { nullable: true }) declineReason!: string | null;
  @Field(() => String, { nullable: true }) declineMessage!: string | null;
  @Field(() => ID) organizationId!: string;
  @Field(() => ID, { nullable: true }) checkoutId!: string | null;
  @Field(() => ID, { nullable: true }) orderId!: string | null;
  @Field(() => Metadata) processorMetadata!: Record<string, unknown>;
  @Field(() => Metadata, { description: 'brand, last4 of the card' }) methodMetadata!: Record<string, unknown>;

  static fromRow(row: ReadRow): PaymentType {
    const p = row.r as Payment;
    return {
      id: p.id,
      createdAt: toDate(p.createdAt),
      modifiedAt: toDate(p.modifiedAt),
      processor: 'stripe',
      status: p.status,
      trigger: p.trigger ?? null,
      amount: toBigInt(p.amount),
      currency: p.currency,
      method: p.method,
      declineReason: p.declineReason,
      declineMessage: p.declineMessage,
      organizationId: p.organizationId,
      checkoutId: p.checkoutId,
      orderId: p.orderId,
      processorMetadata: p.processorMetadata ?? {},
      methodMetadata: p.methodMetadata ?? {},
    };
  }
}

@ObjectType('PaymentList', { simpleResolvers: true })
export class PaymentList extends ListResource(PaymentType) {}

/** Polar's CustomerOrderPaymentStatus: the order's latest payment attempt, as the portal polls it. */
@ObjectType('CustomerOrderPaymentStatus')
export class CustomerOrderPaymentStatusType {
  @Field({ description: 'pending | succeeded | failed, or no_payment before any attempt.' }) status!: string;
  @Field(() => String, { nullable: true, description: "The processor's decline message of a failed payment." })
  error!: string | null;
}
