import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** Polar's `BenefitGrantError`: why the last grant or revoke did not reach the outside system. */
export interface BenefitGrantError {
  message: string;
  type: string;
  timestamp: string;
}

/**
 * A benefit held by a customer through one subscription or one one-time order. Granted: `grantedAt`
 * set and `revokedAt` null. A revoke keeps the row (and its properties, e.g. the license key id); a
 * re-grant revives it, so a benefit is held at most once per subscription or order (unique indexes).
 */
@Entity({ tableName: 'benefit_grants', schema: 'billing' })
export class BenefitGrant {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'uuid' }) benefitId!: string;
  @Property({ type: 'uuid' }) customerId!: string;
  @Property({ type: 'uuid', nullable: true }) subscriptionId: string | null = null;
  @Property({ type: 'uuid', nullable: true }) orderId: string | null = null;
  @Property({ type: 'timestamptz', nullable: true }) grantedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) revokedAt: Date | null = null;
  @Property({ type: 'json' }) properties: Record<string, unknown> = {};
  @Property({ type: 'json', nullable: true }) error: BenefitGrantError | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;

  get isGranted(): boolean {
    return this.grantedAt !== null && this.revokedAt === null;
  }
}
