import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import {
  CreateCustomerInput,
  CustomerFilter,
  UpdateCustomerByExternalIdInput,
  UpdateCustomerInput,
} from './customer.inputs.js';
import { CustomerList, CustomerType } from './customer.type.js';
import { CUSTOMERS_READ, CUSTOMERS_WRITE } from './customer.access.js';
import { onReadReplica } from '../../../kit/database/read-replicas.js';

/** Thin: checks who may call, hands over to the service, maps entities to the public type. */
@Resolver(() => CustomerType)
export class CustomerResolver {
  @Query(() => CustomerList, { description: 'Customers of the organizations the caller may act for.' })
  async customers(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => CustomerFilter, { nullable: true }) filter: CustomerFilter | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<CustomerList> {
    authorize(ctx.principal, CUSTOMERS_READ);
    return ctx.services.customers.list(onReadReplica(ctx), { filter, page, limit, sorting });
  }

  @Query(() => String, { description: "The customers as Polar's CSV (header row first)." })
  async customersExport(
    @Ctx() ctx: BillingContext,
    @Arg('organizationId', () => [ID], { nullable: true }) organizationId: string[] | null,
  ): Promise<string> {
    authorize(ctx.principal, CUSTOMERS_READ);
    return ctx.services.customers.export(onReadReplica(ctx), organizationId);
  }

  @Query(() => CustomerType)
  async customer(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<CustomerType> {
    authorize(ctx.principal, CUSTOMERS_READ);
    return ctx.services.customers.read(ctx, id);
  }

  @Query(() => CustomerType)
  async customerByExternalId(@Ctx() ctx: BillingContext, @Arg('externalId') externalId: string): Promise<CustomerType> {
    authorize(ctx.principal, CUSTOMERS_READ);
    return ctx.services.customers.read(ctx, (await ctx.services.customers.getByExternalId(ctx, externalId)).id);
  }

  @Mutation(() => CustomerType)
  async createCustomer(@Ctx() ctx: BillingContext, @Arg('input') input: CreateCustomerInput): Promise<CustomerType> {
    authorize(ctx.principal, CUSTOMERS_WRITE);
    return CustomerType.fromEntity(await ctx.services.customers.create(ctx, input));
  }

  @Mutation(() => CustomerType)
  async updateCustomer(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: UpdateCustomerInput,
  ): Promise<CustomerType> {
    authorize(ctx.principal, CUSTOMERS_WRITE);
    return CustomerType.fromEntity(await ctx.services.customers.update(ctx, id, input));
  }

  @Mutation(() => CustomerType)
  async updateCustomerByExternalId(
    @Ctx() ctx: BillingContext,
    @Arg('externalId') externalId: string,
    @Arg('input') input: UpdateCustomerByExternalIdInput,
  ): Promise<CustomerType> {
    authorize(ctx.principal, CUSTOMERS_WRITE);
    return CustomerType.fromEntity(await ctx.services.customers.updateByExternalId(ctx, externalId, input));
  }

  @Mutation(() => Boolean, { description: 'Soft-deletes the customer.' })
  async deleteCustomer(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<boolean> {
    authorize(ctx.principal, CUSTOMERS_WRITE);
    await ctx.services.customers.delete(ctx, id);
    return true;
  }

  @Mutation(() => Boolean, { description: 'Soft-deletes the customer with this external id.' })
  async deleteCustomerByExternalId(
    @Ctx() ctx: BillingContext,
    @Arg('externalId') externalId: string,
  ): Promise<boolean> {
    authorize(ctx.principal, CUSTOMERS_WRITE);
    await ctx.services.customers.deleteByExternalId(ctx, externalId);
    return true;
  }
}
