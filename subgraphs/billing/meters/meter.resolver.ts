import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { METERS_READ, METERS_WRITE } from './meter.access.js';
import { MeterCreateInput, MeterFilterInput, MeterQuantitiesInput, MeterUpdateInput } from './meter.inputs.js';
import { MeterList, MeterQuantitiesType, MeterType } from './meter.type.js';

/** `/v1/meters/`: list, get and quantities (read path), create and update (write path). */
@Resolver(() => MeterType)
export class MeterResolver {
  @Query(() => MeterList, { description: 'Meters of the organizations the caller may act for.' })
  async meters(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => MeterFilterInput, { nullable: true }) filter: MeterFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true, description: 'created_at, name; `-` = descending.' })
    sorting: string[] | null,
  ): Promise<MeterList> {
    authorize(ctx.principal, METERS_READ);
    return ctx.services.meters.list(ctx, {
      organizationId: filter?.organizationId ?? null,
      query: filter?.query ?? undefined,
      isArchived: filter?.isArchived ?? undefined,
      metadataValues: filter?.metadata ?? null,
      page,
      limit,
      sorting,
    });
  }

  @Query(() => MeterType)
  async meter(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<MeterType> {
    authorize(ctx.principal, METERS_READ);
    return ctx.services.meters.get(ctx, id);
  }

  @Query(() => MeterQuantitiesType, { description: "A meter's quantities per interval and their total." })
  async meterQuantities(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: MeterQuantitiesInput,
  ): Promise<MeterQuantitiesType> {
    authorize(ctx.principal, METERS_READ);
    return ctx.services.meters.quantities(ctx, id, input);
  }

  @Mutation(() => MeterType)
  async createMeter(@Ctx() ctx: BillingContext, @Arg('input') input: MeterCreateInput): Promise<MeterType> {
    authorize(ctx.principal, METERS_WRITE);
    return ctx.services.meters.create(ctx, input);
  }

  @Mutation(() => MeterType)
  async updateMeter(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: MeterUpdateInput,
  ): Promise<MeterType> {
    authorize(ctx.principal, METERS_WRITE);
    return ctx.services.meters.update(ctx, id, input);
  }
}
