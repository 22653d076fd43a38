import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_PORTAL_READ } from '../customers/customer.access.js';
import { DownloadableList } from './downloadable.type.js';
import { FILE_LINK_HOLDER, FILES_READ, FILES_WRITE } from './file.access.js';
import { CompleteFileUploadInput, CreateFileInput, FileLinkInput, UpdateFileInput } from './file.inputs.js';
import {
  FileChunkType,
  FileDownloadHeadType,
  FileList,
  FilePartStoredType,
  FileType,
  FileUploadType,
} from './file.type.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import { FileFilterInput } from './file.filter.js';
import { DownloadableFilterInput } from './downloadable.filter.js';

/** Thin: checks who may call and hands over to the services. */
@Resolver(() => FileType)
export class FileResolver {
  @Query(() => FileList, { description: 'Uploaded files of the organizations the caller may act for.' })
  async files(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => FileFilterInput, { nullable: true }) filter: FileFilterInput | null,
    @Arg('organizationId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) organizationIdArg:
      | string[]
      | null,
    @Arg('ids', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) idsArg: string[] | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
  ): Promise<FileList> {
    authorize(ctx.principal, FILES_READ);
    const { organizationId, ids } = mergeFilter(filter, { organizationId: organizationIdArg, ids: idsArg });
    return ctx.services.files.list(ctx, { organizationIds: organizationId, ids, page, limit });
  }

  @Query(() => DownloadableList, {
    description: "The signed-in customer's downloadable files (live downloadables grants), with signed download links.",
  })
  async customerPortalDownloadables(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => DownloadableFilterInput, { nullable: true }) filter: DownloadableFilterInput | null,
    @Arg('benefitId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) benefitIdArg: string[] | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
  ): Promise<DownloadableList> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    const { benefitId } = mergeFilter(filter, { benefitId: benefitIdArg });
    return ctx.services.files.downloadables(ctx, { benefitIds: benefitId, page, limit });
  }

  @Mutation(() => FileUploadType, { description: 'Creates a file and answers its upload plan with signed part links.' })
  async createFile(@Ctx() ctx: BillingContext, @Arg('input') input: CreateFileInput): Promise<FileUploadType> {
    authorize(ctx.principal, FILES_WRITE);
    return ctx.services.files.create(ctx, input);
  }

  @Mutation(() => FileType)
  async completeFileUpload(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: CompleteFileUploadInput,
  ): Promise<FileType> {
    authorize(ctx.principal, FILES_WRITE);
    return ctx.services.files.complete(ctx, id, input);
  }

  @Mutation(() => FileType)
  async updateFile(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: UpdateFileInput,
  ): Promise<FileType> {
    authorize(ctx.principal, FILES_WRITE);
    return ctx.services.files.update(ctx, id, input);
  }

  @Mutation(() => Boolean)
  async deleteFile(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<boolean> {
    authorize(ctx.principal, FILES_WRITE);
    await ctx.services.files.delete(ctx, id);
    return true;
  }

  @Mutation(() => Boolean, { description: 'Stores one slice of a part (signed upload link).' })
  async storeFileChunk(
    @Ctx() ctx: BillingContext,
    @Arg('link') link: FileLinkInput,
    @Arg('seq', () => Int) seq: number,
    @Arg('data', { description: 'base64' }) data: string,
  ): Promise<boolean> {
    authorize(ctx.principal, FILE_LINK_HOLDER);
    return ctx.services.fileTransfers.storeChunk(ctx, link, seq, data);
  }

  @Mutation(() => FilePartStoredType, { description: 'Completes a part from its stored slices (signed upload link).' })
  async sealFilePart(
    @Ctx() ctx: BillingContext,
    @Arg('link') link: FileLinkInput,
    @Arg('chunks', () => Int) chunks: number,
  ): Promise<FilePartStoredType> {
    authorize(ctx.principal, FILE_LINK_HOLDER);
    return ctx.services.fileTransfers.sealPart(ctx, link, chunks);
  }

  @Query(() => FileDownloadHeadType, { description: 'A downloadable file (signed download link).' })
  async fileDownload(@Ctx() ctx: BillingContext, @Arg('link') link: FileLinkInput): Promise<FileDownloadHeadType> {
    authorize(ctx.principal, FILE_LINK_HOLDER);
    return ctx.services.fileTransfers.downloadHead(ctx, link);
  }

  @Mutation(() => Boolean, { description: "Counts a download through a customer's signed link (its grant)." })
  async countFileDownload(@Ctx() ctx: BillingContext, @Arg('link') link: FileLinkInput): Promise<boolean> {
    authorize(ctx.principal, FILE_LINK_HOLDER);
    return ctx.services.fileTransfers.countDownload(ctx, link);
  }

  @Query(() => FileChunkType, { description: 'A slice of a downloadable file (signed download link).' })
  async fileChunk(
    @Ctx() ctx: BillingContext,
    @Arg('link') link: FileLinkInput,
    @Arg('part', () => Int) part: number,
    @Arg('seq', () => Int) seq: number,
  ): Promise<FileChunkType> {
    authorize(ctx.principal, FILE_LINK_HOLDER);
    return ctx.services.fileTransfers.chunk(ctx, link, part, seq);
  }
}
