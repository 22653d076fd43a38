import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { PORTAL_READERS } from '../../../kit/database/tenant-scope.js';
import { StoredFile } from './file.entity.js';

export interface DownloadableReadFilters {
  benefitId?: string[];
}

/**
 * The customer's downloadables (`GET /v1/customer-portal/downloadables/`): one row per file named in a
 * live `downloadables` grant (benefit_grants.properties.files, archived files already left out at grant
 * time) whose file is still uploaded, enabled and not deleted, of a benefit not deleted. Polar keeps a
 * `downloadables` table for this; here the grant is the record, so a row's id is derived from the grant
 * and the file (an md5 with UUID version 5 and variant bits set: stable across reads, a valid UUID).
 * The row is the file's columns plus the grant's.
 */
export const downloadableRead = new ReadModel<DownloadableReadFilters>({
  name: 'downloadables',
  from: `(select f.*, g.id as grant_id, g.customer_id, g.benefit_id, g.created_at as granted_created_at,
      (select (substr(h, 1, 12) || '5' || substr(h, 14, 3) || '8' || substr(h, 18, 15))::uuid
        from md5(g.id::text || f.id::text) h) as downloadable_id
    from billing.benefit_grants g
    join billing.benefits b on b.id = g.benefit_id and b.type = 'downloadables' and b.deleted_at is null
    cross join lateral jsonb_array_elements_text(coalesce(g.properties::jsonb -> 'files', '[]'::jsonb)) gf(file_id)
    join billing.files f on f.id::text = gf.file_id
    where g.granted_at is not null and g.revoked_at is null
      and f.deleted_at is null and f.is_uploaded and f.is_enabled) d`,
  alias: 'd',
  readers: PORTAL_READERS,
  tenant: { organization: 'd.organization_id', customer: 'd.customer_id' },
  select: {
    r: entityJson(StoredFile, 'd'),
    downloadable_id: 'd.downloadable_id',
    benefit_id: 'd.benefit_id',
    grant_id: 'd.grant_id',
  },
  filters: { benefitId: { where: 'd.benefit_id = any(?::uuid[])' } },
  sorts: { created_at: { sql: 'd.granted_created_at' } },
  tieBreaker: 'downloadable_id',
  tieBreakerAscending: true,
});
