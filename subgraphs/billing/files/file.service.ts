import { isUuid } from '../../../kit/uuid.js';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { PolarRequestValidationError, ResourceNotFound } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../kit/request-context.js';
import { targetOrganization } from '../../../kit/target-organization.js';
import { tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import { runWrite } from '../events/run-write.js';
import { throwIfAny } from '../shared/issues.js';
import { FilePart, StoredFile } from './file.entity.js';
import type { CompleteFileUploadInput, CreateFileInput, UpdateFileInput } from './file.inputs.js';
import { type LinkSigning, signedDownloadUrl, signedUploadUrl, type SignedLink } from './file-links.js';
import { downloadableRead } from './downloadable.read.js';
import type { DownloadableList } from './downloadable.type.js';
import { fileRead } from './file.read.js';
import { FileList, FileType, type FileUploadType } from './file.type.js';
import { createFileIssues } from './file.validation.js';
import { FileRepository } from './file.repository.js';

export interface FileListQuery extends PageRequest {
  organizationIds?: string[] | null;
  ids?: string[] | null;
}

/**
 * Polar's `/v1/files/` for downloadables: create answers the upload plan with signed part links
 * (file-links.ts; the bytes go to the storage routes, file-transfer.service.ts), completion checks
 * the stored bytes against the declared size and checksum. Stateless apart from the link signing key.
 */
export class FileService {
  constructor(private readonly signing: LinkSigning) {}

  async list(ctx: RequestContext, query: FileListQuery): Promise<FileList> {
    const { rows, total } = await fileRead.page(
      ctx.em,
      ctx.principal,
      // A non-uuid (a GraphQL client's) matches no file rather than failing the uuid[] cast.
      { ids: query.ids?.filter(id => isUuid(id)) ?? undefined },
      [{ key: 'created_at', direction: 'asc' }],
      pageWindow(query),
      { organizationIds: query.organizationIds },
    );
    return { items: rows.map(FileType.fromRow), pagination: paginationOf(total, query.limit) };
  }

  async create(ctx: RequestContext, input: CreateFileInput): Promise<FileUploadType> {
    throwIfAny(createFileIssues(input));
    const organizationId = await targetOrganization(ctx.principal, input.organizationId);
    const now = ctx.clock.now();
    const id = randomUUID();
    const checksum = input.checksumSha256Base64 ?? null;
    // A create has no row to load: the frame's transaction holds the new row (files record no events).
    const file = await runWrite(ctx.em, async em => ({
      result: em.create(StoredFile, {
        id,
        organizationId,
        name: input.name,
        path: `downloadable/${organizationId}/${id}/${input.name}`,
        mimeType: input.mimeType,
        size: BigInt(input.size),
        service: input.service,
        version: input.version ?? null,
        uploadId: randomBytes(24).toString('base64url'),
        parts: [...input.parts]
          .sort((a, b) => a.number - b.number)
          .map(p => ({
            number: p.number,
            chunkStart: p.chunkStart,
            chunkEnd: p.chunkEnd,
            checksumSha256Base64: p.checksumSha256Base64 ?? null,
          })),
        checksumSha256Base64: checksum,
        checksumSha256Hex: checksum ? Buffer.from(checksum, 'base64').toString('hex') : null,
        isUploaded: false,
        isEnabled: true,
        createdAt: now,
      } as StoredFile),
    }));
    return {
      ...FileType.fromEntity(file),
      upload: {
        id: file.uploadId,
        path: file.path,
        parts: file.parts.map(part => {
          const link = signedUploadUrl(this.signing, file.id, part.number, now);
          return { ...part, url: link.url, expiresAt: link.expiresAt, headers: {} };
        }),
      },
    };
  }

  /**
   * Polar's "Complete File Upload": every declared part stored with the ETag the client got, and the
   * whole file hashing to its checksum. A mismatch is a 422 that changes nothing: the client may PUT
   * the parts again and complete again. Completing a completed file answers it as it is. The file is
   * loaded for write (one completion at a time), live, in the read model's scope.
   */
  async complete(ctx: RequestContext, id: string, input: CompleteFileUploadInput): Promise<FileType> {
    return runWrite(ctx.em, async em => {
      const files = new FileRepository(em);
      const file = await loadLiveFile(ctx, em, id);
      if (file.isUploaded) return { result: FileType.fromEntity(file) };
      if (input.id !== file.uploadId || input.path !== file.path)
        throw invalid(
          ['body', 'id'],
          'No such upload: `id` and `path` must be those of the upload of this file.',
          input.id,
        );
      const stored = new Map((await files.partsOf(id)).map(p => [p.partNumber, p]));
      const given = new Map(input.parts.map(p => [p.number, p]));
      for (const part of file.parts) {
        const done = stored.get(part.number);
        if (!done) throw invalid(['body', 'parts'], `Part ${part.number} has not been uploaded.`, part.number);
        const etag = given.get(part.number)?.checksumEtag.trim();
        if (etag !== done.etag && etag !== unquote(done.etag))
          throw invalid(
            ['body', 'parts'],
            `Part ${part.number}: the ETag does not match the uploaded part.`,
            etag ?? null,
          );
      }
      const { size, sha256 } = await hashFile(files, file);
      if (size !== Number(file.size))
        throw invalid(['body', 'parts'], `The uploaded parts hold ${size} bytes, not the file's ${file.size}.`, size);
      if (file.checksumSha256Base64 && sha256 !== file.checksumSha256Base64)
        throw invalid(
          ['body', 'parts'],
          `The uploaded bytes hash to ${sha256}, not to the checksum_sha256_base64 given when the file was created (${file.checksumSha256Base64}). Upload the parts again, or create a new file.`,
          sha256,
        );
      const now = ctx.clock.now();
      file.checksumSha256Base64 = sha256;
      file.checksumSha256Hex = Buffer.from(sha256, 'base64').toString('hex');
      file.checksumEtag = multipartEtag([...stored.values()]);
      file.lastModifiedAt = now;
      file.isUploaded = true;
      file.modifiedAt = now;
      return { result: FileType.fromEntity(file) };
    });
  }

  /** Polar's FilePatch: a non-empty `name` or `version` replaces the current one. */
  async update(ctx: RequestContext, id: string, input: UpdateFileInput): Promise<FileType> {
    return runWrite(ctx.em, async em => {
      const file = await loadLiveFile(ctx, em, id);
      if (input.name) file.name = input.name;
      if (input.version) file.version = input.version;
      if (input.name || input.version) file.modifiedAt = ctx.clock.now();
      return { result: FileType.fromEntity(file) };
    });
  }

  /** Soft delete; the bytes go at once (a download link to it then answers 404). */
  async delete(ctx: RequestContext, id: string): Promise<void> {
    await runWrite(ctx.em, async em => {
      const file = await loadLiveFile(ctx, em, id);
      file.deletedAt = ctx.clock.now();
      await new FileRepository(em).deleteParts(id);
      return { result: undefined };
    });
  }

  /**
   * The signed-in customer's downloadables (Customer Portal): each file of a live downloadables grant,
   * with a fresh download link (the wall clock's: links are checked against it, not the sandbox clock).
   */
  async downloadables(
    ctx: RequestContext,
    query: PageRequest & { benefitIds?: string[] | null },
  ): Promise<DownloadableList> {
    const { rows, total } = await downloadableRead.page(
      ctx.em,
      ctx.principal,
      { benefitId: query.benefitIds?.filter(id => isUuid(id)) ?? undefined },
      [{ key: 'created_at', direction: 'asc' }],
      pageWindow(query),
    );
    const now = ctx.clock.now();
    const items = rows.map(row => {
      const file = FileType.fromRow(row);
      const link = signedDownloadUrl(file.id, { ...this.signing, now, grantId: row.grant_id as string });
      return {
        id: row.downloadable_id as string,
        benefitId: row.benefit_id as string,
        file: { ...file, download: { url: link.url, headers: {}, expiresAt: link.expiresAt } },
      };
    });
    return { items, pagination: paginationOf(total, query.limit) };
  }

  /** A signed download link to one of the service's files (the downloadables benefit hands these out). */
  downloadUrl(fileId: string, now: Date, ttlSeconds?: number): SignedLink {
    return signedDownloadUrl(fileId, { ...this.signing, now, ttlSeconds });
  }
}

/**
 * A live file of the caller's organizations, uploaded or not, loaded for write: one locking statement in
 * the read model's scope, so a change answers 404 exactly where the file is not readable. A non-uuid id
 * is a 404 too (not a failed uuid cast).
 */
function loadLiveFile(ctx: RequestContext, em: EntityManager, id: string): Promise<StoredFile> {
  if (!isUuid(id)) throw new ResourceNotFound();
  return loadForWrite(em, StoredFile, id, tenantScope(ctx.principal, fileRead.definition.readers), {
    where: { deletedAt: null },
  });
}

function invalid(loc: (string | number)[], msg: string, input: unknown): PolarRequestValidationError {
  return new PolarRequestValidationError([{ type: 'value_error', loc, msg, input }]);
}

const unquote = (etag: string) => etag.replace(/^"|"$/g, '');

/** S3's ETag of a multipart object: the digest of the parts' digests, and the part count. */
function multipartEtag(parts: FilePart[]): string {
  const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
  const digest = createHash('md5');
  for (const part of sorted) digest.update(Buffer.from(unquote(part.etag), 'hex'));
  return `"${digest.digest('hex')}-${sorted.length}"`;
}

/** Size and SHA-256 (base64) of the stored bytes, read a few slices at a time in order. */
async function hashFile(files: FileRepository, file: StoredFile): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  let cursor: [number, number] = [0, -1];
  for (;;) {
    const rows = await files.chunksAfter(file.id, cursor[0], cursor[1]);
    for (const row of rows) {
      hash.update(row.data);
      size += row.data.length;
    }
    if (rows.length < 16) break;
    const last = rows[rows.length - 1];
    cursor = [last.part_number, last.seq];
  }
  return { size, sha256: hash.digest('base64') };
}
