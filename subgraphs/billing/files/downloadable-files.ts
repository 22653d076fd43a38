import type { EntityManager } from '@mikro-orm/postgresql';
import type { ValidationIssue } from '../../../kit/errors.js';
import { FileRepository } from './file.repository.js';

/**
 * What a downloadables benefit may list: files of the benefit's own organization that exist (not
 * deleted), are stored for downloadables, have all their bytes (upload completed) and are enabled.
 * Anything else would hand a customer another organization's file, or a link to nothing. Answers one
 * 422 item per refused entry of `fileIds`, at `loc` prefix + its index.
 */
export async function downloadableFileIssues(
  em: EntityManager,
  organizationId: string,
  fileIds: readonly string[],
  loc: readonly (string | number)[],
): Promise<ValidationIssue[]> {
  if (!fileIds.length) return [];
  const rows = await new FileRepository(em).findLiveDownloadables(organizationId, fileIds);
  const byId = new Map(rows.map(row => [row.id, row]));
  return fileIds.flatMap((id, index) => {
    const file = byId.get(id);
    const msg = !file
      ? 'File does not exist.'
      : !file.isUploaded
        ? 'File upload is not completed.'
        : !file.isEnabled
          ? 'File is disabled.'
          : null;
    return msg ? [{ type: 'value_error', loc: [...loc, index], msg, input: id }] : [];
  });
}
