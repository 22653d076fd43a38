import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** Polar's DisputeStatus (docs/disputes.md#statuses). */
export type DisputeStatus = 'prevented' | 'early_warning' | 'needs_response' | 'under_review' | 'lost' | 'won';
export const DISPUTE_STATUSES: readonly DisputeStatus[] = [
  'prevented',
  'early_warning',
  'needs_response',
  'under_review',
  'lost',
  'won',
];
/** Won or lost: the card network decided. */
export const RESOLVED_DISPUTE_STATUSES: readonly DisputeStatus[] = ['lost', 'won'];
/** Nothing more can happen to it. */
export const CLOSED_DISPUTE_STATUSES: readonly DisputeStatus[] = ['prevented', 'lost', 'won'];

/**
 * A customer's (or their bank's) challenge of a payment (docs/disputes.md): made and kept current only by the
 * payment processor's dispute events; the merchant may concede it (`accept`). `amount` is net of tax and
 * `taxAmount` the order's tax share of what is disputed, in minor units, as Polar splits them. Unique by the
 * processor's dispute id, so a redelivered event updates the same row.
 */
@Entity({ tableName: 'disputes', schema: 'billing' })
export class Dispute {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'uuid' }) orderId!: string;
  @Property({ type: 'uuid' }) paymentId!: string;
  @Property({ type: 'uuid' }) customerId!: string;
  @Property({ type: 'text' }) status!: DisputeStatus;
  @Property({ type: 'bigint' }) amount!: bigint;
  @Property({ type: 'bigint' }) taxAmount: bigint = 0n;
  @Property({ type: 'text' }) currency!: string;
  /** The processor's id of the dispute (`dp_…`). */
  @Property({ type: 'text' }) processorId!: string;
  @Property({ type: 'text', nullable: true }) reason: string | null = null;
  @Property({ type: 'timestamptz', nullable: true }) evidenceDueBy: Date | null = null;
  @Property({ type: 'boolean' }) pastDue = false;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
