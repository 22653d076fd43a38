import { type EntityData, type EntityManager } from '@mikro-orm/postgresql';
import { FileChunk, FilePart, StoredFile } from './file.entity.js';

/** One stored slice of an upload, as the hand-written reads return it. */
export interface StoredSlice {
  part_number: number;
  seq: number;
  data: Buffer;
}

/** Stored files and the parts and slices (chunks) of their uploads. */
export class FileRepository {
  constructor(private readonly em: EntityManager) {}

  findById(id: string): Promise<StoredFile | null> {
    return this.em.findOne(StoredFile, { id });
  }

  /** The organization's live downloadable files among `ids`. */
  findLiveDownloadables(organizationId: string, ids: readonly string[]): Promise<StoredFile[]> {
    return this.em.find(StoredFile, {
      id: { $in: [...new Set(ids)] },
      organizationId,
      service: 'downloadable',
      deletedAt: null,
    });
  }

  /** Stores one slice of a part (again, when re-sent). */
  async saveChunk(chunk: EntityData<FileChunk>): Promise<void> {
    await this.em.upsert(FileChunk, chunk);
  }

  /** The part's slices, in order. */
  chunksOfPart(fileId: string, partNumber: number): Promise<FileChunk[]> {
    return this.em.find(FileChunk, { fileId, partNumber }, { orderBy: { seq: 'asc' } });
  }

  /** Drops the part's slices from `fromSeq` on (left by an earlier, longer attempt). */
  deleteChunksFrom(fileId: string, partNumber: number, fromSeq: number): Promise<number> {
    return this.em.nativeDelete(FileChunk, { fileId, partNumber, seq: { $gte: fromSeq } });
  }

  /** Stores a received part (again, when re-sent). */
  async savePart(part: EntityData<FilePart>): Promise<void> {
    await this.em.upsert(FilePart, part);
  }

  /** The file's received parts. */
  partsOf(fileId: string): Promise<FilePart[]> {
    return this.em.find(FilePart, { fileId });
  }

  /** Forgets one part: its slices, then the part. */
  async deletePart(fileId: string, partNumber: number): Promise<void> {
    await this.em.nativeDelete(FileChunk, { fileId, partNumber });
    await this.em.nativeDelete(FilePart, { fileId, partNumber });
  }

  /** Forgets every part of the file: the slices, then the parts. */
  async deleteParts(fileId: string): Promise<void> {
    await this.em.nativeDelete(FileChunk, { fileId });
    await this.em.nativeDelete(FilePart, { fileId });
  }

  /** One more download of `fileId` through a link of `grantId` (docs/license-keys-and-files.md#download-statistics). */
  async countDownload(grantId: string, fileId: string, at: Date): Promise<void> {
    await this.em.execute(
      `insert into billing.downloadable_downloads (grant_id, file_id, downloaded, last_downloaded_at) values (?, ?, 1, ?)
       on conflict (grant_id, file_id) do update set downloaded = downloadable_downloads.downloaded + 1,
       last_downloaded_at = excluded.last_downloaded_at`,
      [grantId, fileId, at],
    );
  }

  /** The stored slice at (part, seq) or the next one after it, and the one after that (a download's cursor). */
  chunksFrom(fileId: string, part: number, seq: number): Promise<StoredSlice[]> {
    return this.em.execute<StoredSlice[]>(
      `select part_number, seq, data from billing.file_chunks where file_id = ? and (part_number, seq) >= (?, ?)
       order by part_number, seq limit 2`,
      [fileId, part, seq],
    );
  }

  /** Up to 16 stored slices after (part, seq), in order (hashing a completed upload a few at a time). */
  chunksAfter(fileId: string, part: number, seq: number): Promise<StoredSlice[]> {
    return this.em.execute<StoredSlice[]>(
      `select part_number, seq, data from billing.file_chunks where file_id = ? and (part_number, seq) > (?, ?)
       order by part_number, seq limit 16`,
      [fileId, part, seq],
    );
  }
}
