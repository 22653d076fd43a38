import type { EntityManager } from '@mikro-orm/postgresql';
import { entityJson, type LazySql } from '../../../kit/database/read/entity-json.js';
import type { ValidationIssue } from '../../../kit/errors.js';
import { CustomField } from './custom-field.entity.js';
import { CustomFieldType } from './custom-field.type.js';
import { CustomFieldRepository } from './custom-field.repository.js';

/** One of a product's custom fields as the product shows it (Polar's AttachedCustomField, camelCase here). */
export interface AttachedCustomFieldView {
  customFieldId: string;
  customField: CustomFieldType;
  order: number;
  required: boolean;
}

/** What a product create or update names (Polar's AttachedCustomFieldCreate). */
export interface AttachedCustomFieldInput {
  customFieldId: string;
  required: boolean;
}

/**
 * The product `alias`'s live custom fields in their order, as JSON for the read path (product.read.ts): each
 * `{customFieldId, customField, order, required}`; a deleted field is gone from it.
 */
export const attachedCustomFieldsJson =
  (alias: string): LazySql =>
  em =>
    `(select coalesce(json_agg(json_build_object('customFieldId', pcf.custom_field_id, 'customField', ${entityJson(CustomField, 'acf')(em)}, 'order', pcf.position, 'required', pcf.required) order by pcf.position), '[]'::json) from billing.product_custom_fields pcf join billing.custom_fields acf on acf.id = pcf.custom_field_id and acf.organization_id = ${alias}.organization_id and acf.deleted_at is null where pcf.product_id = ${alias}.id)`;

/** THE shape of one attached field (the read path, a write's answer and its event all build it here). */
function viewOf(field: CustomField, required: boolean, order: number): AttachedCustomFieldView {
  return { customFieldId: field.id, customField: CustomFieldType.fromEntity(field), order, required };
}

/** The read path's JSON of `attachedCustomFieldsJson`, shaped (the field as `CustomFieldType`). */
export function attachedFromRow(rows: unknown): AttachedCustomFieldView[] {
  return ((rows ?? []) as { customField: CustomField; order: number; required: boolean }[]).map(a =>
    viewOf(a.customField, a.required, a.order),
  );
}

/** The product's live custom fields in order, with whether each is required (for a checkout's answers). */
export async function attachedFieldsOf(
  em: EntityManager,
  productId: string,
): Promise<{ field: CustomField; required: boolean }[]> {
  const repository = new CustomFieldRepository(em);
  const rows = await repository.attachedTo(productId);
  if (!rows.length) return [];
  const fields = new Map((await repository.findByIds(rows.map(r => r.id))).map(f => [f.id, f] as const));
  return rows.flatMap(r => (fields.has(r.id) ? [{ field: fields.get(r.id)!, required: r.required }] : []));
}

/** The product's live custom fields as the product shows them (a write's event, when it did not change them). */
export async function attachedViewsOf(em: EntityManager, productId: string): Promise<AttachedCustomFieldView[]> {
  return (await attachedFieldsOf(em, productId)).map(({ field, required }, order) => viewOf(field, required, order));
}

/**
 * Replaces the product's custom fields with `attached`, in that order (Polar's update: the list is complete).
 * Each must be a live field of the product's organization, named once: else 422 at
 * `attached_custom_fields.<i>.custom_field_id`. Answers the views, for the write's answer.
 */
export async function replaceAttachedCustomFields(
  em: EntityManager,
  product: { id: string; organizationId: string },
  attached: readonly AttachedCustomFieldInput[],
): Promise<{ issues: ValidationIssue[]; views: AttachedCustomFieldView[] }> {
  const ids = attached.map(a => a.customFieldId);
  const repository = new CustomFieldRepository(em);
  const live = await repository.findLiveInOrganization(product.organizationId, ids);
  const byId = new Map(live.map(f => [f.id, f] as const));
  const issues: ValidationIssue[] = [];
  attached.forEach((a, i) => {
    const loc = ['body', 'attached_custom_fields', i, 'custom_field_id'];
    if (!byId.has(a.customFieldId))
      issues.push({ type: 'value_error', loc, msg: 'Custom field does not exist.', input: a.customFieldId });
    else if (ids.indexOf(a.customFieldId) !== i)
      issues.push({ type: 'value_error', loc, msg: 'Custom field is attached twice.', input: a.customFieldId });
  });
  if (issues.length) return { issues, views: [] };
  await repository.replaceAttached(product.id, attached);
  return {
    issues,
    views: attached.map((a, i) => viewOf(byId.get(a.customFieldId)!, a.required, i)),
  };
}
