import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { DiscountDuration, DiscountType } from '../shared/enums.js';

/**
 * A reduction: a fixed amount (minor units, one currency) or a percentage (basis points), applied once,
 * forever, or for `durationInMonths` months. Optional code, validity window, redemption limit and
 * product restriction.
 */
@Entity({ tableName: 'discounts', schema: 'billing' })
@Index({ properties: ['organizationId', 'createdAt'] })
// Codes are unique per organization, case-insensitively, among live discounts: a partial unique index
// on (organization_id, lower(code)) in Migration20261121150000_discount_codes.
export class Discount {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text' }) name!: string;
  @Enum({ items: () => DiscountType }) type!: DiscountType;
  @Property({ type: 'bigint', nullable: true }) amount: bigint | null = null;
  @Property({ type: 'text', nullable: true }) currency: string | null = null;
  @Property({ type: 'integer', nullable: true }) basisPoints: number | null = null;
  @Enum({ items: () => DiscountDuration }) duration!: DiscountDuration;
  @Property({ type: 'integer', nullable: true }) durationInMonths: number | null = null;
  @Property({ type: 'text', nullable: true }) code: string | null = null;
  @Property({ type: 'timestamptz', nullable: true }) startsAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) endsAt: Date | null = null;
  @Property({ type: 'integer', nullable: true }) maxRedemptions: number | null = null;
  @Property({ type: 'integer', nullable: true }) maxRedemptionsPerCustomer: number | null = null;
  @Property({ type: 'integer' }) redemptionsCount = 0;
  @Property({ type: 'uuid[]' }) productIds: string[] = [];
  @Property({ type: 'json' }) metadata: Record<string, string | number | boolean> = {};
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
}
