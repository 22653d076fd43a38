import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { BenefitDownloadableFileList } from '../files/benefit-file.type.js';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { PRODUCTS_WRITE } from '../products/product.access.js';
import { ProductType } from '../products/product.type.js';
import { BENEFITS_READ, BENEFITS_WRITE } from './benefit.access.js';
import { CreateBenefitInput, UpdateBenefitInput } from './benefit.inputs.js';
import { BenefitGrantList, BenefitList, BenefitType } from './benefit.type.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import { BenefitFilterInput } from './benefit.filter.js';
import { BenefitGrantFilterInput } from './benefit-grant.filter.js';

/** Thin: checks who may call and hands over to the services. */
@Resolver(() => BenefitType)
export class BenefitResolver {
  @Query(() => BenefitList, { description: 'Benefits of the organizations the caller may act for.' })
  async benefits(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => BenefitFilterInput, { nullable: true }) filter: BenefitFilterInput | null,
    @Arg('id', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) idArg: string[] | null,
    @Arg('organizationId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) organizationIdArg:
      | string[]
      | null,
    @Arg('type', () => [String], { nullable: true, deprecationReason: FILTER_REPLACES }) typeArg: string[] | null,
    @Arg('query', () => String, { nullable: true, deprecationReason: FILTER_REPLACES }) queryArg: string | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<BenefitList> {
    authorize(ctx.principal, BENEFITS_READ);
    const { id, organizationId, type, query } = mergeFilter(filter, {
      id: idArg,
      organizationId: organizationIdArg,
      type: typeArg,
      query: queryArg,
    });
    return ctx.services.benefits.list(ctx, {
      ids: id ?? undefined,
      organizationIds: organizationId,
      types: type ?? undefined,
      query: query ?? undefined,
      page,
      limit,
      sorting,
    });
  }

  @Query(() => BenefitType)
  async benefit(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<BenefitType> {
    authorize(ctx.principal, BENEFITS_READ);
    return ctx.services.benefits.get(ctx, id);
  }

  @Query(() => BenefitDownloadableFileList, {
    description: "A downloadables benefit's files with their download statistics.",
  })
  async benefitFiles(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
  ): Promise<BenefitDownloadableFileList> {
    authorize(ctx.principal, BENEFITS_READ);
    return ctx.services.benefits.files(ctx, id, { page, limit });
  }

  @Mutation(() => BenefitType)
  async createBenefit(@Ctx() ctx: BillingContext, @Arg('input') input: CreateBenefitInput): Promise<BenefitType> {
    authorize(ctx.principal, BENEFITS_WRITE);
    return ctx.services.benefits.create(ctx, input);
  }

  @Mutation(() => BenefitType)
  async updateBenefit(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: UpdateBenefitInput,
  ): Promise<BenefitType> {
    authorize(ctx.principal, BENEFITS_WRITE);
    return ctx.services.benefits.update(ctx, id, input);
  }

  @Mutation(() => Boolean, { description: 'Deletes (soft) a benefit and revokes its grants.' })
  async deleteBenefit(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<boolean> {
    authorize(ctx.principal, BENEFITS_WRITE);
    await ctx.services.benefits.delete(ctx, id);
    return true;
  }

  @Mutation(() => ProductType, { description: "Replaces a product's benefits (in this order)." })
  async updateProductBenefits(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('benefits', () => [ID]) benefits: string[],
  ): Promise<ProductType> {
    authorize(ctx.principal, PRODUCTS_WRITE);
    await ctx.services.benefits.setProductBenefits(ctx, id, benefits);
    return ctx.services.products.read(ctx, id);
  }

  @Query(() => BenefitGrantList, { description: 'Grants of benefits, of the organizations the caller may act for.' })
  async benefitGrants(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => BenefitGrantFilterInput, { nullable: true }) filter: BenefitGrantFilterInput | null,
    @Arg('organizationId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) organizationIdArg:
      | string[]
      | null,
    @Arg('benefitId', () => ID, { nullable: true, deprecationReason: FILTER_REPLACES }) benefitIdArg: string | null,
    @Arg('customerId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) customerIdArg:
      | string[]
      | null,
    @Arg('externalCustomerId', () => [String], { nullable: true, deprecationReason: FILTER_REPLACES })
    externalCustomerIdArg: string[] | null,
    @Arg('isGranted', () => Boolean, { nullable: true, deprecationReason: FILTER_REPLACES }) isGrantedArg:
      | boolean
      | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<BenefitGrantList> {
    authorize(ctx.principal, BENEFITS_READ);
    const { organizationId, benefitId, customerId, externalCustomerId, isGranted } = mergeFilter(filter, {
      organizationId: organizationIdArg,
      benefitId: benefitIdArg,
      customerId: customerIdArg,
      externalCustomerId: externalCustomerIdArg,
      isGranted: isGrantedArg,
    });
    const query = {
      organizationIds: organizationId,
      customerIds: customerId ?? undefined,
      externalCustomerIds: externalCustomerId ?? undefined,
      isGranted: isGranted ?? undefined,
      page,
      limit,
      sorting,
    };
    return benefitId
      ? ctx.services.benefitGrants.ofBenefit(ctx, benefitId, query)
      : ctx.services.benefitGrants.list(ctx, query);
  }
}
