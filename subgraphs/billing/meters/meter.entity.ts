import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Aggregation, Filter } from './meter-sql.js';

/** Polar's MeterUnit: what a quantity counts, for display. */
export type MeterUnit = 'scalar' | 'token' | 'custom';
export const METER_UNITS: readonly MeterUnit[] = ['scalar', 'token', 'custom'];

/**
 * A meter (docs/meters.md): which events count (`filter`) and how they add up (`aggregation`), compiled to SQL by
 * `meter-sql.ts`. `customLabel` and `customMultiplier` belong to the `custom` unit only. Archived meters
 * (`archivedAt`) are kept and still answer their quantities; they no longer bill.
 */
@Entity({ tableName: 'meters', schema: 'billing' })
export class Meter {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text' }) name!: string;
  @Property({ type: 'text' }) unit: MeterUnit = 'scalar';
  @Property({ type: 'text', nullable: true }) customLabel: string | null = null;
  @Property({ type: 'integer', nullable: true }) customMultiplier: number | null = null;
  @Property({ type: 'json' }) filter!: Filter;
  @Property({ type: 'json' }) aggregation!: Aggregation;
  @Property({ type: 'json' }) metadata: Record<string, string | number | boolean> = {};
  @Property({ type: 'timestamptz', nullable: true }) archivedAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
