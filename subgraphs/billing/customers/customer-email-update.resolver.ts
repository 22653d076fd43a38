import { Arg, Ctx, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { Unauthorized } from '../../../kit/errors.js';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_EMAIL_UPDATE_TOKEN, CUSTOMER_PORTAL_WRITE } from './customer.access.js';

@ObjectType('CustomerEmailUpdateVerifyResult', {
  description: 'A new customer session token for the changed customer.',
})
export class CustomerEmailUpdateVerifyResult {
  @Field() token!: string;
}

/** The portal's e-mail change (docs/customer-email-update.md): request (customer session), check and verify (the token). */
@Resolver()
export class CustomerEmailUpdateResolver {
  @Mutation(() => Boolean, {
    description: 'E-mails a verification link to the new address of the calling customer. Always true.',
  })
  async customerPortalRequestEmailUpdate(@Ctx() ctx: BillingContext, @Arg('email') email: string): Promise<boolean> {
    authorize(ctx.principal, CUSTOMER_PORTAL_WRITE);
    if (!ctx.principal.subjectId) throw new Unauthorized();
    const customer = await ctx.services.customers.get(ctx, ctx.principal.subjectId);
    await ctx.services.customerEmailUpdates.request(ctx, customer, email);
    return true;
  }

  @Query(() => Boolean, { description: 'Whether an e-mail change token is still valid (401 when not).' })
  async customerEmailUpdateTokenValid(@Ctx() ctx: BillingContext, @Arg('token') token: string): Promise<boolean> {
    authorize(ctx.principal, CUSTOMER_EMAIL_UPDATE_TOKEN);
    await ctx.services.customerEmailUpdates.check(ctx, token);
    return true;
  }

  @Mutation(() => CustomerEmailUpdateVerifyResult, {
    description: 'Spends an e-mail change token (single use, 30 minutes): the change is made.',
  })
  async customerPortalVerifyEmailUpdate(
    @Ctx() ctx: BillingContext,
    @Arg('token') token: string,
  ): Promise<CustomerEmailUpdateVerifyResult> {
    authorize(ctx.principal, CUSTOMER_EMAIL_UPDATE_TOKEN);
    return ctx.services.customerEmailUpdates.verify(ctx, token);
  }
}
