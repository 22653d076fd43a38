import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { containsPattern } from '../../../kit/database/read/values.js';
import { CORE_READERS } from '../../../kit/database/tenant-scope.js';
import { CustomField } from './custom-field.entity.js';

export interface CustomFieldReadFilters {
  query?: string;
  type?: string[];
}

/** Live custom fields (`/v1/custom-fields/`): one statement per page, each row the field's own JSON. */
export const customFieldRead = new ReadModel<CustomFieldReadFilters>({
  name: 'custom_fields',
  from: 'billing.custom_fields cf',
  alias: 'cf',
  readers: CORE_READERS,
  tenant: { organization: 'cf.organization_id' },
  visible: 'cf.deleted_at is null',
  select: { f: entityJson(CustomField, 'cf') },
  filters: {
    query: {
      where: '(cf.name ilike ? or cf.slug ilike ?)',
      values: text => [containsPattern(text), containsPattern(text)],
    },
    type: { where: 'cf.type = any(?::text[])' },
  },
  sorts: {
    created_at: { sql: 'cf.created_at' },
    slug: { sql: 'cf.slug' },
    name: { sql: 'cf.name' },
    type: { sql: 'cf.type' },
  },
  tieBreaker: 'id',
});
