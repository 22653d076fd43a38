import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { PriceAmountType } from '../shared/enums.js';

export interface SeatTier {
  min_seats: number;
  max_seats: number | null;
  price_per_seat: number;
}

export interface SeatTiers {
  seat_tier_type: 'volume' | 'graduated';
  tiers: SeatTier[];
}

/**
 * A price of a product. Money is integer minor units (`bigint` columns) in `priceCurrency`.
 * Which amount columns are set depends on `amountType`; prices are archived, never deleted.
 */
@Entity({ tableName: 'product_prices', schema: 'billing' })
export class ProductPrice {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  // NOTE: a plain column, not a relation: prices are loaded in one batch per page of products by the
  // repository, and this avoids a circular import between the two entity modules.
  @Index() @Property({ type: 'uuid' }) productId!: string;
  @Enum({ items: () => PriceAmountType }) amountType!: PriceAmountType;
  @Property({ type: 'text' }) priceCurrency = 'usd';
  @Property({ type: 'text', nullable: true }) taxBehavior: string | null = null;
  @Property({ type: 'text' }) source: 'catalog' | 'ad_hoc' = 'catalog';
  @Property({ type: 'boolean' }) isArchived = false;
  @Property({ type: 'bigint', nullable: true }) priceAmount: bigint | null = null;
  @Property({ type: 'bigint', nullable: true }) minimumAmount: bigint | null = null;
  @Property({ type: 'bigint', nullable: true }) maximumAmount: bigint | null = null;
  @Property({ type: 'bigint', nullable: true }) presetAmount: bigint | null = null;
  @Property({ type: 'json', nullable: true }) seatTiers: SeatTiers | null = null;
  /** metered_unit: the meter it bills (docs/usage-billing.md). */
  @Property({ type: 'uuid', nullable: true }) meterId: string | null = null;
  /** metered_unit: minor units per unit, an exact decimal string (numeric(17, 12)); never a float. */
  @Property({ type: 'decimal', precision: 17, scale: 12, nullable: true }) unitAmount: string | null = null;
  /** metered_unit: the most one period's usage of this price may charge. */
  @Property({ type: 'bigint', nullable: true }) capAmount: bigint | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
