import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CustomerType } from '../customers/customer.type.js';
import { CreateCustomerSessionInput } from './customer-session.inputs.js';
import { CustomerSessionType } from './customer-session.type.js';
import { CUSTOMER_SESSIONS_WRITE } from './customer-session.access.js';

@Resolver(() => CustomerSessionType)
export class CustomerSessionResolver {
  @Mutation(() => CustomerSessionType, { description: 'A one-hour customer portal token for a customer.' })
  async createCustomerSession(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: CreateCustomerSessionInput,
  ): Promise<CustomerSessionType> {
    authorize(ctx.principal, CUSTOMER_SESSIONS_WRITE);
    const created = await ctx.services.customerSessions.create(ctx, input);
    return {
      createdAt: created.session.createdAt,
      modifiedAt: null,
      id: created.session.id,
      token: created.token,
      expiresAt: created.session.expiresAt,
      returnUrl: created.session.returnUrl,
      customerPortalUrl: created.customerPortalUrl,
      customerId: created.customer.id,
      customer: CustomerType.fromEntity(created.customer),
    };
  }
}
