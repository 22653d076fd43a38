import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** Polar's CustomFieldType (docs/custom-fields.md#types). */
export type CustomFieldKind = 'text' | 'number' | 'date' | 'checkbox' | 'select';
export const CUSTOM_FIELD_KINDS: readonly CustomFieldKind[] = ['text', 'number', 'date', 'checkbox', 'select'];

/**
 * A question a merchant asks at checkout (docs/custom-fields.md). `properties` is the type's configuration
 * exactly as Polar's wire shows it (snake_case: `form_label`, `min_length`, `ge`, `options`, …). Its answers
 * live under its `slug` in a checkout's, an order's and a subscription's `custom_field_data`. Deleted softly: a
 * live slug is unique in its organization (a partial unique index), a deleted one may be taken again.
 */
@Entity({ tableName: 'custom_fields', schema: 'billing' })
export class CustomField {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text' }) type!: CustomFieldKind;
  @Property({ type: 'text' }) slug!: string;
  @Property({ type: 'text' }) name!: string;
  @Property({ type: 'json' }) properties: Record<string, unknown> = {};
  @Property({ type: 'json' }) metadata: Record<string, string | number | boolean> = {};
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
}
