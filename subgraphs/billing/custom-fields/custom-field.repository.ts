import type { EntityManager } from '@mikro-orm/postgresql';
import { CustomField } from './custom-field.entity.js';

/** The tables whose `custom_field_data` holds answers by slug (docs/custom-fields.md#answers). */
const ANSWER_TABLES = ['billing.checkouts', 'billing.orders', 'billing.subscriptions'] as const;

/** Custom fields, the products that ask them (`billing.product_custom_fields`) and the answers given by slug. */
export class CustomFieldRepository {
  constructor(private readonly em: EntityManager) {}

  findLiveBySlug(organizationId: string, slug: string): Promise<CustomField | null> {
    return this.em.findOne(CustomField, { organizationId, slug, deletedAt: null });
  }

  findByIds(ids: readonly string[]): Promise<CustomField[]> {
    return ids.length ? this.em.find(CustomField, { id: { $in: [...ids] } }) : Promise.resolve([]);
  }

  findLiveInOrganization(organizationId: string, ids: readonly string[]): Promise<CustomField[]> {
    return ids.length
      ? this.em.find(CustomField, { id: { $in: [...ids] }, organizationId, deletedAt: null })
      : Promise.resolve([]);
  }

  /** The product's live fields' ids in its order, with whether each is required. */
  attachedTo(productId: string): Promise<{ id: string; required: boolean }[]> {
    return this.em.execute<{ id: string; required: boolean }[]>(
      `select pcf.custom_field_id as id, pcf.required from billing.product_custom_fields pcf join billing.custom_fields cf on cf.id = pcf.custom_field_id and cf.deleted_at is null where pcf.product_id = ? order by pcf.position`,
      [productId],
    );
  }

  /** The product's fields become `attached`, in that order. */
  async replaceAttached(productId: string, attached: readonly { customFieldId: string; required: boolean }[]) {
    await this.em.execute('delete from billing.product_custom_fields where product_id = ?', [productId]);
    for (const [i, a] of attached.entries())
      await this.em.execute(
        'insert into billing.product_custom_fields (product_id, custom_field_id, position, required) values (?, ?, ?, ?)',
        [productId, a.customFieldId, i, a.required],
      );
  }

  /** The field leaves every product that asked it. */
  async detachEverywhere(customFieldId: string): Promise<void> {
    await this.em.execute('delete from billing.product_custom_fields where custom_field_id = ?', [customFieldId]);
  }

  /** The answers given under `from` move to `to`, in the organization's checkouts, orders and subscriptions. */
  async renameAnswers(organizationId: string, from: string, to: string): Promise<void> {
    for (const table of ANSWER_TABLES)
      await this.em.execute(
        `update ${table} set custom_field_data = (custom_field_data - ?::text) || jsonb_build_object(?::text, custom_field_data -> ?::text) where organization_id = ? and jsonb_exists(custom_field_data, ?::text)`,
        [from, to, from, organizationId, from],
      );
  }
}
