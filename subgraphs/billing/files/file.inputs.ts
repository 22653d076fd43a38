import { Field, Float, ID, InputType, Int } from 'type-graphql';

@InputType('FileCreatePartInput')
export class FileCreatePartInput {
  @Field(() => Int) number!: number;
  @Field(() => Float) chunkStart!: number;
  @Field(() => Float) chunkEnd!: number;
  @Field(() => String, { nullable: true }) checksumSha256Base64?: string | null;
}

/** Polar's DownloadableFileCreate. */
@InputType('CreateFileInput')
export class CreateFileInput {
  @Field(() => ID, { nullable: true }) organizationId?: string | null;
  @Field() name!: string;
  @Field() mimeType!: string;
  @Field(() => Float) size!: number;
  @Field(() => String, { nullable: true }) checksumSha256Base64?: string | null;
  @Field() service!: string;
  @Field(() => String, { nullable: true }) version?: string | null;
  @Field(() => [FileCreatePartInput]) parts!: FileCreatePartInput[];
}

@InputType('FileUploadedPartInput')
export class FileUploadedPartInput {
  @Field(() => Int) number!: number;
  @Field() checksumEtag!: string;
  @Field(() => String, { nullable: true }) checksumSha256Base64?: string | null;
}

/** Polar's FileUploadCompleted. */
@InputType('CompleteFileUploadInput')
export class CompleteFileUploadInput {
  @Field() id!: string;
  @Field() path!: string;
  @Field(() => [FileUploadedPartInput]) parts!: FileUploadedPartInput[];
}

/** Polar's FilePatch. */
@InputType('UpdateFileInput')
export class UpdateFileInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) version?: string | null;
}

/** The claims of a signed link, as the storage router read them from its query string. */
@InputType('FileLinkInput')
export class FileLinkInput {
  @Field(() => ID) fileId!: string;
  @Field(() => Int, { description: 'The part (upload links); 0 for a download link.' }) part!: number;
  @Field(() => Float) expires!: number;
  @Field(() => ID, { nullable: true, description: "A customer's download link: the grant it counts for." })
  grantId?: string | null;
  @Field() signature!: string;
}
