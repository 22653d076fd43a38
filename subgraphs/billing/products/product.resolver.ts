import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CreateProductInput, UpdateProductInput } from './product.inputs.js';
import { ProductList, ProductType } from './product.type.js';
import { PRODUCTS_READ, PRODUCTS_WRITE } from './product.access.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import { ProductFilterInput } from './product.filter.js';

/** Thin: checks who may call, hands over to the service, maps entities to the public type. */
@Resolver(() => ProductType)
export class ProductResolver {
  @Query(() => ProductList, { description: 'Products of the organizations the caller may act for.' })
  async products(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => ProductFilterInput, { nullable: true }) filter: ProductFilterInput | null,
    @Arg('id', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) idArg: string[] | null,
    @Arg('organizationId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) organizationIdArg:
      | string[]
      | null,
    @Arg('query', () => String, { nullable: true, deprecationReason: FILTER_REPLACES }) queryArg: string | null,
    @Arg('isArchived', () => Boolean, { nullable: true, deprecationReason: FILTER_REPLACES }) isArchivedArg:
      | boolean
      | null,
    @Arg('isRecurring', () => Boolean, { nullable: true, deprecationReason: FILTER_REPLACES }) isRecurringArg:
      | boolean
      | null,
    @Arg('visibility', () => [String], { nullable: true, deprecationReason: FILTER_REPLACES }) visibilityArg:
      | string[]
      | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<ProductList> {
    authorize(ctx.principal, PRODUCTS_READ);
    const { id, organizationId, query, isArchived, isRecurring, visibility } = mergeFilter(filter, {
      id: idArg,
      organizationId: organizationIdArg,
      query: queryArg,
      isArchived: isArchivedArg,
      isRecurring: isRecurringArg,
      visibility: visibilityArg,
    });
    return ctx.services.products.list(ctx, {
      ids: id,
      organizationIds: organizationId,
      query,
      isArchived,
      isRecurring,
      visibility,
      page,
      limit,
      sorting,
    });
  }

  @Query(() => ProductType)
  async product(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<ProductType> {
    authorize(ctx.principal, PRODUCTS_READ);
    return ctx.services.products.read(ctx, id);
  }

  @Mutation(() => ProductType)
  async createProduct(@Ctx() ctx: BillingContext, @Arg('input') input: CreateProductInput): Promise<ProductType> {
    authorize(ctx.principal, PRODUCTS_WRITE);
    const { product, prices, attached } = await ctx.services.products.create(ctx, input);
    return ProductType.fromEntity(product, prices, [], true, attached);
  }

  @Mutation(() => ProductType, { description: 'Updates a product; `isArchived: true` archives it.' })
  async updateProduct(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: UpdateProductInput,
  ): Promise<ProductType> {
    authorize(ctx.principal, PRODUCTS_WRITE);
    await ctx.services.products.update(ctx, id, input);
    // Read back through the read path: the answer carries the product's benefits.
    return ctx.services.products.read(ctx, id);
  }

  @Mutation(() => Boolean, {
    description: 'Deletes (soft) a product nothing uses (`isDeletable`); archive the others.',
  })
  async deleteProduct(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<boolean> {
    authorize(ctx.principal, PRODUCTS_WRITE);
    await ctx.services.products.delete(ctx, id);
    return true;
  }
}
