import { Field, Float, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { Metadata } from '../shared/scalars.js';
import type { StoredFile } from './file.entity.js';

const SIMPLE = { simpleResolvers: true } as const;

/** Polar's `human_readable_size`: `f"{num:3.1f} {unit}B"` over powers of 1024. */
export function humanReadableSize(bytes: number): string {
  let num = bytes;
  for (const unit of ['', 'K', 'M', 'G', 'T', 'P', 'E', 'Z']) {
    if (Math.abs(num) < 1024) return `${num.toFixed(1)} ${unit}B`;
    num /= 1024;
  }
  return `${num.toFixed(1)} YB`;
}

/** Polar's FileRead (the `downloadable` variant; docs/polar/endpoints.md#core-api `/v1/files/`). */
@ObjectType('File', SIMPLE)
export class FileType {
  @Field(() => ID) id!: string;
  @Field(() => ID) organizationId!: string;
  @Field() name!: string;
  @Field() path!: string;
  @Field() mimeType!: string;
  @Field(() => Float, { description: 'Bytes.' }) size!: number;
  @Field() sizeReadable!: string;
  @Field(() => String, { nullable: true }) storageVersion!: string | null;
  @Field(() => String, { nullable: true }) checksumEtag!: string | null;
  @Field(() => String, { nullable: true }) checksumSha256Base64!: string | null;
  @Field(() => String, { nullable: true }) checksumSha256Hex!: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) lastModifiedAt!: Date | null;
  @Field(() => String, { nullable: true }) version!: string | null;
  @Field() service!: string;
  @Field() isUploaded!: boolean;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) flaggedMaliciousAt!: Date | null;

  static fromEntity(f: Readonly<StoredFile>): FileType {
    const size = Number(f.size);
    return {
      id: f.id,
      organizationId: f.organizationId,
      name: f.name,
      path: f.path,
      mimeType: f.mimeType,
      size,
      sizeReadable: humanReadableSize(size),
      storageVersion: f.storageVersion,
      checksumEtag: f.checksumEtag,
      checksumSha256Base64: f.checksumSha256Base64,
      checksumSha256Hex: f.checksumSha256Hex,
      lastModifiedAt: toDate(f.lastModifiedAt),
      version: f.version,
      service: f.service,
      isUploaded: f.isUploaded,
      createdAt: toDate(f.createdAt),
      flaggedMaliciousAt: null,
    };
  }

  static fromRow(row: ReadRow): FileType {
    return FileType.fromEntity(row.r as StoredFile);
  }
}

@ObjectType('FileList', SIMPLE)
export class FileList extends ListResource(FileType) {}

/** Polar's S3FileUploadPart: where and until when to PUT one part. */
@ObjectType('FileUploadPart', SIMPLE)
export class FileUploadPartType {
  @Field(() => Int) number!: number;
  @Field(() => Float) chunkStart!: number;
  @Field(() => Float) chunkEnd!: number;
  @Field(() => String, { nullable: true }) checksumSha256Base64!: string | null;
  @Field() url!: string;
  @Field(() => GraphQLISODateTime) expiresAt!: Date;
  @Field(() => Metadata, { description: 'Headers to send with the PUT (none needed here).' })
  headers!: Record<string, string>;
}

@ObjectType('FileUploadMultipart', SIMPLE)
export class FileUploadMultipartType {
  @Field() id!: string;
  @Field() path!: string;
  @Field(() => [FileUploadPartType]) parts!: FileUploadPartType[];
}

/** Polar's FileUpload: the new file and its upload plan with signed part links. */
@ObjectType('FileUpload', SIMPLE)
export class FileUploadType extends FileType {
  @Field(() => FileUploadMultipartType) upload!: FileUploadMultipartType;
}

/** What the storage router needs to stream a download (the bytes come chunk by chunk). */
@ObjectType('FileDownloadHead', SIMPLE)
export class FileDownloadHeadType {
  @Field() name!: string;
  @Field() mimeType!: string;
  @Field(() => Float) size!: number;
  @Field(() => String, { nullable: true }) checksumSha256Base64!: string | null;
}

/** One stored slice of a file (base64) and the cursor of the next one (null at the end). */
@ObjectType('FileChunk', SIMPLE)
export class FileChunkType {
  @Field({ description: 'base64' }) data!: string;
  @Field(() => Int, { nullable: true }) nextPart!: number | null;
  @Field(() => Int, { nullable: true }) nextSeq!: number | null;
}

/** The answer to a stored part: its ETag (what S3 answers a part PUT with). */
@ObjectType('FilePartStored', SIMPLE)
export class FilePartStoredType {
  @Field() etag!: string;
  @Field() checksumSha256Base64!: string;
}
