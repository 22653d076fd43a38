import { type EntityData, type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { FileChunk, FilePart, StoredFile } from './file.entity.js';

/** Stored files and the parts and slices (chunks) of their uploads. */
export class FileRepository {
  constructor(private readonly em: EntityManager) {}

  findById(id: string): Promise<StoredFile | null> {
    return this.em.findOne(StoredFile, { id });
  }

  findByIdOrFail(id: string): Promise<StoredFile> {
    return this.em.findOneOrFail(StoredFile, { id });
  }

  /** The file, row-locked until the transaction ends (one completion or deletion at a time). */
  findForUpdate(id: string): Promise<StoredFile> {
    return this.em.findOneOrFail(StoredFile, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
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
}
