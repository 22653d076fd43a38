import { Ctx, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import { Unauthorized } from '../../../kit/errors.js';
import type { BillingContext } from '../context.js';
import { CustomerPortalCustomerType } from './customer-portal.type.js';
import { CUSTOMER_PORTAL_READ } from './customer.access.js';

@Resolver(() => CustomerPortalCustomerType)
export class CustomerPortalCustomerResolver {
  @Query(() => CustomerPortalCustomerType, { description: 'The authenticated customer (customer session token).' })
  async customerPortalMe(@Ctx() ctx: BillingContext): Promise<CustomerPortalCustomerType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    if (!ctx.principal.subjectId) throw new Unauthorized();
    return CustomerPortalCustomerType.fromEntity(await ctx.services.customers.get(ctx, ctx.principal.subjectId));
  }
}
