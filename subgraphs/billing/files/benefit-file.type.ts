import { Field, Int, ObjectType } from 'type-graphql';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { FileType } from './file.type.js';

/** Polar's BenefitDownloadableFile: a file of a downloadables benefit with its download statistics. */
@ObjectType('BenefitDownloadableFile', { simpleResolvers: true })
export class BenefitDownloadableFileType extends FileType {
  @Field(() => Int, { description: 'Distinct customers who downloaded the file.' }) downloaders!: number;
  @Field(() => Int, { description: 'Downloads of the file, all customers together.' }) downloads!: number;
}

@ObjectType('BenefitDownloadableFileList', { simpleResolvers: true })
export class BenefitDownloadableFileList extends ListResource(BenefitDownloadableFileType) {}
