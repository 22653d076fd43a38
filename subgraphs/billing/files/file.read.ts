import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS } from '../../../kit/database/tenant-scope.js';
import { StoredFile } from './file.entity.js';

export interface FileReadFilters {
  ids?: string[];
}

/**
 * Files as `GET /v1/files/` lists them: live and uploaded ones (Polar lists only completed uploads),
 * oldest first. Gets for writes use `includeHidden` to reach a file whose upload is not complete yet.
 */
export const fileRead = new ReadModel<FileReadFilters>({
  name: 'files',
  from: 'billing.files f',
  alias: 'f',
  readers: CORE_READERS,
  tenant: { organization: 'f.organization_id' },
  visible: 'f.deleted_at is null and f.is_uploaded',
  select: { r: entityJson(StoredFile, 'f') },
  filters: { ids: { where: 'f.id = any(?::uuid[])' } },
  sorts: { created_at: { sql: 'f.created_at' } },
  tieBreaker: 'id',
  tieBreakerAscending: true,
});
