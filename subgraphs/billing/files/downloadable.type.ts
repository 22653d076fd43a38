import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { Metadata } from '../shared/scalars.js';
import { FileType } from './file.type.js';

const SIMPLE = { simpleResolvers: true } as const;

/** Polar's S3DownloadURL: a signed link to the file's bytes and until when it works. */
@ObjectType('FileDownloadUrl', SIMPLE)
export class FileDownloadUrlType {
  @Field() url!: string;
  @Field(() => Metadata, { description: 'Headers to send with the GET (none needed here).' })
  headers!: Record<string, string>;
  @Field(() => GraphQLISODateTime) expiresAt!: Date;
}

/** Polar's FileDownload: the file and its signed download link. */
@ObjectType('FileDownload', SIMPLE)
export class FileDownloadType extends FileType {
  @Field(() => FileDownloadUrlType) download!: FileDownloadUrlType;
}

/** Polar's DownloadableRead: one file the customer's live downloadables grants give. */
@ObjectType('Downloadable', SIMPLE)
export class DownloadableType {
  @Field(() => ID) id!: string;
  @Field(() => ID) benefitId!: string;
  @Field(() => FileDownloadType) file!: FileDownloadType;
}

@ObjectType('DownloadableList', SIMPLE)
export class DownloadableList extends ListResource(DownloadableType) {}
