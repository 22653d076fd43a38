import { isUuid } from '../../../kit/uuid.js';
import { createHash } from 'node:crypto';
import { BadRequest, ResourceNotFound } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { StoredFile } from './file.entity.js';
import type { FileLinkInput } from './file.inputs.js';
import { type LinkPurpose, verifyLink } from './file-links.js';
import type { FileChunkType, FileDownloadHeadType, FilePartStoredType } from './file.type.js';
import { CHUNK_BYTES, MAX_PART_BYTES } from './file.validation.js';
import { FileRepository } from './file.repository.js';

/**
 * The bytes behind signed links (the storage routes of rest-adapter/inbound/storage/): a part arrives as
 * slices of at most 512 KiB (`storeChunk`, each idempotent by its position) and is then sealed
 * (`sealPart`: hashed from what is stored, checked against its declared range and checksum); a
 * download is read back slice by slice. Every call checks the link first; a link is its own credential.
 */
export class FileTransferService {
  constructor(private readonly secret: string) {}

  async storeChunk(ctx: RequestContext, link: FileLinkInput, seq: number, base64: string): Promise<boolean> {
    const file = await this.uploadTarget(ctx, link);
    const data = Buffer.from(base64, 'base64');
    if (!Number.isInteger(seq) || seq < 0 || seq * CHUNK_BYTES >= MAX_PART_BYTES || data.length > CHUNK_BYTES)
      throw new BadRequest(`A slice is at most ${CHUNK_BYTES} bytes, and a part at most ${MAX_PART_BYTES}.`);
    await new FileRepository(ctx.em).saveChunk({ fileId: file.id, partNumber: link.part, seq, data });
    return true;
  }

  /**
   * The part is complete once its first `chunks` slices are stored: later slices of an earlier, longer
   * attempt are dropped; its bytes must fill the declared range and match the declared checksum.
   */
  async sealPart(ctx: RequestContext, link: FileLinkInput, chunks: number): Promise<FilePartStoredType> {
    const file = await this.uploadTarget(ctx, link);
    try {
      return await this.checkAndSeal(ctx, file, link.part, chunks);
    } catch (error) {
      // A refused part leaves nothing behind: its slices (and any earlier seal) go, the client sends it again.
      await ctx.em.fork().transactional(async em => {
        await new FileRepository(em).deletePart(file.id, link.part);
      });
      throw error;
    }
  }

  private async checkAndSeal(
    ctx: RequestContext,
    file: StoredFile,
    part: number,
    chunks: number,
  ): Promise<FilePartStoredType> {
    const link = { part };
    const declared = file.parts.find(p => p.number === link.part)!;
    return ctx.em.fork().transactional(async em => {
      const files = new FileRepository(em);
      await files.deleteChunksFrom(file.id, link.part, chunks);
      const slices = await files.chunksOfPart(file.id, link.part);
      if (slices.length !== chunks || slices.some((s, i) => s.seq !== i))
        throw new BadRequest('The part was not received whole; send it again.');
      const sha = createHash('sha256');
      const md5 = createHash('md5');
      let size = 0;
      for (const slice of slices) {
        sha.update(slice.data);
        md5.update(slice.data);
        size += slice.data.length;
      }
      const expected = declared.chunkEnd - declared.chunkStart;
      if (size !== expected)
        throw new BadRequest(
          `Part ${link.part} is ${expected} bytes (bytes ${declared.chunkStart} to ${declared.chunkEnd}); ${size} were sent.`,
        );
      const checksum = sha.digest('base64');
      if (declared.checksumSha256Base64 && declared.checksumSha256Base64 !== checksum)
        throw new BadRequest(
          `The bytes of part ${link.part} hash to ${checksum}, not to its declared checksum_sha256_base64 (${declared.checksumSha256Base64}).`,
        );
      const etag = `"${md5.digest('hex')}"`;
      await files.savePart({
        fileId: file.id,
        partNumber: link.part,
        chunks,
        size: BigInt(size),
        checksumSha256Base64: checksum,
        etag,
        uploadedAt: ctx.clock.now(),
      });
      return { etag, checksumSha256Base64: checksum };
    });
  }

  /** What a download answers with, before its bytes. @throws ResourceNotFound when gone or not uploaded. */
  async downloadHead(ctx: RequestContext, link: FileLinkInput): Promise<FileDownloadHeadType> {
    const file = await this.linked(ctx, link, 'download');
    if (!file.isUploaded) throw new ResourceNotFound();
    return {
      name: file.name,
      mimeType: file.mimeType,
      size: Number(file.size),
      checksumSha256Base64: file.checksumSha256Base64,
    };
  }

  /**
   * A customer's download link was followed (it names its grant): one more download of the grant's file,
   * for the benefit's download statistics (`GET /v1/benefits/{id}/files`). Counted once per download,
   * before its bytes, by the storage route; a merchant's link (no grant) counts nothing.
   */
  async countDownload(ctx: RequestContext, link: FileLinkInput): Promise<boolean> {
    const file = await this.linked(ctx, link, 'download');
    if (!file.isUploaded || !link.grantId || !isUuid(link.grantId)) return false;
    await new FileRepository(ctx.em).countDownload(link.grantId, file.id, ctx.clock.now());
    return true;
  }

  /** The stored slice at (part, seq) or the next one after it, and the cursor of the one after that. */
  async chunk(ctx: RequestContext, link: FileLinkInput, part: number, seq: number): Promise<FileChunkType> {
    const file = await this.linked(ctx, link, 'download');
    if (!file.isUploaded) throw new ResourceNotFound();
    const rows = await new FileRepository(ctx.em).chunksFrom(file.id, part, seq);
    if (!rows.length) return { data: '', nextPart: null, nextSeq: null };
    const next = rows[1];
    return { data: rows[0].data.toString('base64'), nextPart: next?.part_number ?? null, nextSeq: next?.seq ?? null };
  }

  /** A file an upload link may still write: declared part, upload not completed. */
  private async uploadTarget(ctx: RequestContext, link: FileLinkInput): Promise<StoredFile> {
    const file = await this.linked(ctx, link, 'upload');
    if (!file.parts.some(p => p.number === link.part)) throw new ResourceNotFound();
    if (file.isUploaded) throw new BadRequest('The upload of this file is complete; its bytes cannot change.');
    return file;
  }

  private async linked(ctx: RequestContext, link: FileLinkInput, purpose: LinkPurpose): Promise<StoredFile> {
    verifyLink(this.secret, { ...link, purpose }, ctx.clock.now());
    const file = isUuid(link.fileId) ? await new FileRepository(ctx.em).findById(link.fileId) : null;
    if (!file || file.deletedAt) throw new ResourceNotFound();
    return file;
  }
}
