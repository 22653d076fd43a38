import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toBigInt, toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import type { Customer } from '../customers/customer.entity.js';
import { CustomerType } from '../customers/customer.type.js';
import { MinorUnits } from '../shared/scalars.js';
import { CLOSED_DISPUTE_STATUSES, type Dispute, RESOLVED_DISPUTE_STATUSES } from './dispute.entity.js';

/** Polar's Dispute (docs/disputes.md). */
@ObjectType('Dispute', { simpleResolvers: true })
export class DisputeType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => String, { description: 'prevented | early_warning | needs_response | under_review | lost | won' })
  status!: string;
  @Field({ description: 'Won or lost.' }) resolved!: boolean;
  @Field({ description: 'Prevented, won or lost.' }) closed!: boolean;
  @Field(() => MinorUnits, { description: 'Disputed, net of tax.' }) amount!: bigint;
  @Field(() => MinorUnits) taxAmount!: bigint;
  @Field() currency!: string;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) evidenceDueBy!: Date | null;
  @Field() pastDue!: boolean;
  @Field(() => ID) orderId!: string;
  @Field(() => ID) paymentId!: string;
  @Field(() => CustomerType) customer!: CustomerType;
  @Field(() => ID, { nullable: true, description: 'Always null: no support cases here.' }) caseId!: string | null;

  static fromRow(row: ReadRow): DisputeType {
    const d = row.d as Dispute;
    const customer = row.customer as Customer | null;
    if (!customer) throw new Error(`dispute ${d.id}: customer missing`);
    return {
      id: d.id,
      createdAt: toDate(d.createdAt),
      modifiedAt: toDate(d.modifiedAt),
      status: d.status,
      resolved: RESOLVED_DISPUTE_STATUSES.includes(d.status),
      closed: CLOSED_DISPUTE_STATUSES.includes(d.status),
      amount: toBigInt(d.amount),
      taxAmount: toBigInt(d.taxAmount),
      currency: d.currency,
      reason: d.reason,
      evidenceDueBy: toDate(d.evidenceDueBy),
      pastDue: d.pastDue,
      orderId: d.orderId,
      paymentId: d.paymentId,
      customer: CustomerType.fromEntity(customer),
      caseId: null,
    };
  }
}

@ObjectType('DisputeList', { simpleResolvers: true })
export class DisputeList extends ListResource(DisputeType) {}
