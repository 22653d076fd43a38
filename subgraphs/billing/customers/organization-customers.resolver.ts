import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { OrganizationRef } from '../organizations/organization.type.js';
import { CustomerFilter } from './customer.inputs.js';
import { CUSTOMERS_READ } from './customer.access.js';
import { CustomerList } from './customer.type.js';

/** `Organization.customers`: billing's field on identity's Organization. */
@Resolver(() => OrganizationRef)
export class OrganizationCustomersResolver {
  @FieldResolver(() => CustomerList, { description: "The organization's live customers." })
  async customers(
    @Root() organization: OrganizationRef,
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => CustomerFilter, { nullable: true }) filter: CustomerFilter | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<CustomerList> {
    authorize(ctx.principal, CUSTOMERS_READ);
    return ctx.services.customers.list(ctx, {
      filter: { ...filter, organizationId: [organization.id] },
      page,
      limit,
      sorting,
    });
  }
}
