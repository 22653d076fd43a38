import type { EntityManager } from '@mikro-orm/postgresql';
import { StoredFile } from './file.entity.js';
import { BenefitDownloadableFileType } from './benefit-file.type.js';
import { FileType } from './file.type.js';

/**
 * The files of one downloadables benefit (`GET /v1/benefits/{id}/files`), as Polar lists them: the
 * active (not archived) ids of its `properties.files`, in that order, that are uploaded `downloadable`
 * files not deleted, each with its statistics from the counters of the benefit's grants
 * (billing.downloadable_downloads): `downloaders` distinct customers with a download, `downloads` the
 * sum. The caller has checked the benefit is readable; `fileIds` come from it. One statement per page,
 * the total in a window count.
 */
export async function benefitFilesPage(
  em: EntityManager,
  benefitId: string,
  fileIds: readonly string[],
  window: { limit: number; offset: number },
): Promise<{ items: BenefitDownloadableFileType[]; total: number }> {
  if (!fileIds.length) return { items: [], total: 0 };
  const rows = await em.execute<Record<string, unknown>[]>(
    `select f.*, coalesce(st.downloaders, 0)::int as "__downloaders", coalesce(st.downloads, 0)::int as "__downloads",
       count(*) over () as "__total"
     from unnest(?::uuid[]) with ordinality as ord(file_id, position)
     join billing.files f on f.id = ord.file_id and f.is_uploaded and f.service = 'downloadable' and f.deleted_at is null
     left join lateral (
       select count(distinct g.customer_id) filter (where dd.downloaded > 0) as downloaders, sum(dd.downloaded) as downloads
       from billing.downloadable_downloads dd join billing.benefit_grants g on g.id = dd.grant_id and g.benefit_id = ?
       where dd.file_id = f.id) st on true
     order by ord.position limit ? offset ?`,
    [`{${fileIds.join(',')}}`, benefitId, window.limit, window.offset],
  );
  const items = rows.map(row => {
    const { __downloaders, __downloads, __total: _t, ...columns } = row;
    const file = FileType.fromEntity(em.map(StoredFile, columns as never));
    return { ...file, downloaders: Number(__downloaders), downloads: Number(__downloads) };
  });
  // A page past the end has no row to carry the total: count the matching files alone.
  const total = rows.length ? Number(rows[0].__total) : await countFiles(em, fileIds);
  return { items, total };
}

async function countFiles(em: EntityManager, fileIds: readonly string[]): Promise<number> {
  const [row] = await em.execute<{ n: string }[]>(
    `select count(*) as n from billing.files f where f.id = any(?::uuid[]) and f.is_uploaded
       and f.service = 'downloadable' and f.deleted_at is null`,
    [`{${fileIds.join(',')}}`],
  );
  return Number(row?.n ?? 0);
}
