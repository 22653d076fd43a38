import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type SeatStatus = 'pending' | 'claimed' | 'revoked';

/**
 * One seat of a seat-based subscription or order (Polar's CustomerSeat; docs/customer-seats.md). The
 * billing customer is the purchaser (whose portal manages the seats); `customerId` is the seat holder's
 * own customer. The invitation token is kept only as its HMAC (hidden: never read back or served).
 */
@Entity({ tableName: 'customer_seats', schema: 'billing' })
export class CustomerSeat {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'uuid', nullable: true }) subscriptionId: string | null = null;
  @Property({ type: 'uuid', nullable: true }) orderId: string | null = null;
  @Property({ type: 'uuid' }) billingCustomerId!: string;
  @Property({ type: 'text' }) status: SeatStatus = 'pending';
  @Property({ type: 'uuid', nullable: true }) customerId: string | null = null;
  @Property({ type: 'uuid', nullable: true }) memberId: string | null = null;
  @Property({ type: 'text', nullable: true }) email: string | null = null;
  @Property({ type: 'text', nullable: true, hidden: true }) invitationTokenHash: string | null = null;
  @Property({ type: 'timestamptz', nullable: true }) invitationTokenExpiresAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) claimedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) revokedAt: Date | null = null;
  @Property({ type: 'json' }) seatMetadata: Record<string, unknown> = {};
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
