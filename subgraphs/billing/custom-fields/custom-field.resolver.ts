import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOM_FIELDS_READ, CUSTOM_FIELDS_WRITE } from './custom-field.access.js';
import { CustomFieldCreateInput, CustomFieldFilterInput, CustomFieldUpdateInput } from './custom-field.inputs.js';
import { CustomFieldList, CustomFieldType } from './custom-field.type.js';

/** `/v1/custom-fields/`: list and get (read path), create, update, delete. */
@Resolver(() => CustomFieldType)
export class CustomFieldResolver {
  @Query(() => CustomFieldList, { description: 'Custom fields of the organizations the caller may act for.' })
  async customFields(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => CustomFieldFilterInput, { nullable: true }) filter: CustomFieldFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true, description: 'created_at, slug, name, type; `-` = descending.' })
    sorting: string[] | null,
  ): Promise<CustomFieldList> {
    authorize(ctx.principal, CUSTOM_FIELDS_READ);
    return ctx.services.customFields.list(ctx, {
      organizationId: filter?.organizationId ?? null,
      query: filter?.query ?? undefined,
      type: filter?.type ?? undefined,
      page,
      limit,
      sorting,
    });
  }

  @Query(() => CustomFieldType)
  async customField(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<CustomFieldType> {
    authorize(ctx.principal, CUSTOM_FIELDS_READ);
    return ctx.services.customFields.get(ctx, id);
  }

  @Mutation(() => CustomFieldType)
  async createCustomField(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: CustomFieldCreateInput,
  ): Promise<CustomFieldType> {
    authorize(ctx.principal, CUSTOM_FIELDS_WRITE);
    return ctx.services.customFields.create(ctx, input);
  }

  @Mutation(() => CustomFieldType)
  async updateCustomField(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: CustomFieldUpdateInput,
  ): Promise<CustomFieldType> {
    authorize(ctx.principal, CUSTOM_FIELDS_WRITE);
    return ctx.services.customFields.update(ctx, id, input);
  }

  @Mutation(() => Boolean)
  async deleteCustomField(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<boolean> {
    authorize(ctx.principal, CUSTOM_FIELDS_WRITE);
    await ctx.services.customFields.delete(ctx, id);
    return true;
  }
}
