import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { ResourceNotFound } from '../../../kit/errors.js';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CustomerType } from '../customers/customer.type.js';
import { CreateCustomerSessionInput } from './customer-session.inputs.js';
import { CustomerSessionIntrospectionType, CustomerSessionType } from './customer-session.type.js';
import { CUSTOMER_PORTAL_READ } from '../customers/customer.access.js';
import { CUSTOMER_SESSIONS_WRITE } from './customer-session.access.js';
import { CustomerSessionRepository } from './customer-session.repository.js';

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

  @Query(() => CustomerSessionIntrospectionType, {
    description: "The calling customer session's expiry and return URL.",
  })
  async customerPortalSession(@Ctx() ctx: BillingContext): Promise<CustomerSessionIntrospectionType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    const session = ctx.principal.tokenId
      ? await new CustomerSessionRepository(ctx.em).findById(ctx.principal.tokenId)
      : null;
    if (!session || session.customerId !== ctx.principal.subjectId) throw new ResourceNotFound();
    return { expiresAt: session.expiresAt, returnUrl: session.returnUrl };
  }
}
