import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_METERS_READ, CUSTOMER_PORTAL_METERS_READ } from './customer-meter.access.js';
import { CustomerMeterFilterInput, CustomerPortalMeterFilterInput } from './customer-meter.inputs.js';
import { CustomerMeterList, CustomerMeterType } from './customer-meter.type.js';
import { CustomerMeterService } from './customer-meter.service.js';

const service = new CustomerMeterService();

/** `/v1/customer-meters/` and the portal's `/v1/customer-portal/meters/` (docs/usage-billing.md#customer-meters). */
@Resolver(() => CustomerMeterType)
export class CustomerMeterResolver {
  @Query(() => CustomerMeterList, { description: "Customers' meters: units since the last reset." })
  async customerMeters(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => CustomerMeterFilterInput, { nullable: true }) filter: CustomerMeterFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<CustomerMeterList> {
    authorize(ctx.principal, CUSTOMER_METERS_READ);
    return service.list(ctx, filter, page, limit, sorting);
  }

  @Query(() => CustomerMeterType)
  async customerMeter(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<CustomerMeterType> {
    authorize(ctx.principal, CUSTOMER_METERS_READ);
    return service.get(ctx, id);
  }

  @Query(() => CustomerMeterList, { description: "The customer session's own meters." })
  async customerPortalMeters(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => CustomerPortalMeterFilterInput, { nullable: true })
    filter: CustomerPortalMeterFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<CustomerMeterList> {
    authorize(ctx.principal, CUSTOMER_PORTAL_METERS_READ);
    return service.list(ctx, { meterId: filter?.meterId ?? null }, page, limit, sorting);
  }

  @Query(() => CustomerMeterType)
  async customerPortalMeter(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<CustomerMeterType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_METERS_READ);
    return service.get(ctx, id);
  }
}
