import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

import type { BenefitKind } from './benefit-types.js';

export type { BenefitKind } from './benefit-types.js';

/**
 * What a product gives its customers. `properties` is the type's configuration as Polar's wire has it
 * (snake_case, validated per type by benefit.validation.ts). Deleting is soft (`deletedAt`): grants and
 * orders keep pointing at it.
 */
@Entity({ tableName: 'benefits', schema: 'billing' })
export class Benefit {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text' }) type!: BenefitKind;
  @Property({ type: 'text' }) description!: string;
  @Property({ type: 'text' }) visibility = 'public';
  @Property({ type: 'boolean' }) selectable = true;
  @Property({ type: 'boolean' }) deletable = true;
  @Property({ type: 'json' }) properties: Record<string, unknown> = {};
  @Property({ type: 'json' }) metadata: Record<string, string | number | boolean> = {};
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
}

/** A benefit attached to a product, at `position` in the product's list. */
@Entity({ tableName: 'product_benefits', schema: 'billing' })
export class ProductBenefit {
  @PrimaryKey({ type: 'uuid' }) productId!: string;
  @PrimaryKey({ type: 'uuid' }) benefitId!: string;
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'integer' }) position!: number;
}
