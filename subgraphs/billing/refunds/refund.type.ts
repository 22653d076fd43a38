import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toBigInt, toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { Metadata, MinorUnits } from '../shared/scalars.js';
import type { Refund } from './refund.entity.js';

/** Polar's Refund (docs/polar/resources.md#refund); `dispute` is always null here (no disputes yet). */
@ObjectType('Refund', { simpleResolvers: true })
export class RefundType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => String, { description: 'pending | succeeded | failed | canceled' }) status!: string;
  @Field(() => String, { description: 'RefundReason' }) reason!: string;
  @Field(() => MinorUnits, { description: 'Refunded, net of tax.' }) amount!: bigint;
  @Field(() => MinorUnits) taxAmount!: bigint;
  @Field() currency!: string;
  @Field(() => ID) organizationId!: string;
  @Field(() => ID) orderId!: string;
  @Field(() => ID, { nullable: true }) subscriptionId!: string | null;
  @Field(() => ID) customerId!: string;
  @Field() revokeBenefits!: boolean;
  @Field(() => Metadata) metadata!: Record<string, string | number | boolean>;

  static fromRow(row: ReadRow): RefundType {
    return RefundType.fromEntity(row.r as Refund);
  }

  static fromEntity(r: Readonly<Refund>): RefundType {
    return {
      id: r.id,
      createdAt: toDate(r.createdAt),
      modifiedAt: toDate(r.modifiedAt),
      status: r.status,
      reason: r.reason,
      amount: toBigInt(r.amount),
      taxAmount: toBigInt(r.taxAmount),
      currency: r.currency,
      organizationId: r.organizationId,
      orderId: r.orderId,
      subscriptionId: r.subscriptionId,
      customerId: r.customerId,
      revokeBenefits: r.revokeBenefits,
      metadata: r.metadata ?? {},
    };
  }
}

@ObjectType('RefundList', { simpleResolvers: true })
export class RefundList extends ListResource(RefundType) {}
