import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** One part of the upload plan a client declares (Polar's S3FileCreatePart; `chunkEnd` is exclusive). */
export interface DeclaredPart {
  number: number;
  chunkStart: number;
  chunkEnd: number;
  checksumSha256Base64: string | null;
}

/**
 * A file of Polar's `/v1/files/` (`service` downloadable for the downloadables benefit). Created
 * before its bytes exist (`isUploaded` false); completed by `POST /v1/files/{id}/uploaded` once every
 * part is stored and the whole checks against `checksumSha256Base64`. Deletion is soft.
 */
@Entity({ tableName: 'files', schema: 'billing' })
@Index({ properties: ['organizationId', 'createdAt'] })
export class StoredFile {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text' }) name!: string;
  @Property({ type: 'text' }) path!: string;
  @Property({ type: 'text' }) mimeType!: string;
  @Property({ type: 'bigint' }) size!: bigint;
  @Property({ type: 'text' }) service!: string;
  @Property({ type: 'text', nullable: true }) version: string | null = null;
  @Property({ type: 'text' }) uploadId!: string;
  @Property({ type: 'json' }) parts: DeclaredPart[] = [];
  @Property({ type: 'text', nullable: true, fieldName: 'checksum_sha256_base64' }) checksumSha256Base64: string | null =
    null;
  @Property({ type: 'text', nullable: true, fieldName: 'checksum_sha256_hex' }) checksumSha256Hex: string | null = null;
  @Property({ type: 'text', nullable: true }) checksumEtag: string | null = null;
  @Property({ type: 'text', nullable: true }) storageVersion: string | null = null;
  @Property({ type: 'timestamptz', nullable: true }) lastModifiedAt: Date | null = null;
  @Property({ type: 'boolean' }) isUploaded = false;
  @Property({ type: 'boolean' }) isEnabled = true;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
}

/** A slice (≤ 512 KiB) of one uploaded part's bytes; `seq` orders the slices of a part. */
@Entity({ tableName: 'file_chunks', schema: 'billing' })
export class FileChunk {
  @PrimaryKey({ type: 'uuid' }) fileId!: string;
  @PrimaryKey({ type: 'integer' }) partNumber!: number;
  @PrimaryKey({ type: 'integer' }) seq!: number;
  @Property({ type: 'blob' }) data!: Buffer;
}

/** A part whose bytes are all stored, with what they hash to (its ETag answers the PUT). */
@Entity({ tableName: 'file_parts', schema: 'billing' })
export class FilePart {
  @PrimaryKey({ type: 'uuid' }) fileId!: string;
  @PrimaryKey({ type: 'integer' }) partNumber!: number;
  @Property({ type: 'integer' }) chunks!: number;
  @Property({ type: 'bigint' }) size!: bigint;
  @Property({ type: 'text', fieldName: 'checksum_sha256_base64' }) checksumSha256Base64!: string;
  @Property({ type: 'text' }) etag!: string;
  @Property({ type: 'timestamptz' }) uploadedAt!: Date;
}
