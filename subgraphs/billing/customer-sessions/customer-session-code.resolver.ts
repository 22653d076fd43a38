import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_SESSION_CODE } from './customer-session.access.js';
import { CustomerSessionCodeRequestInput } from './customer-session.inputs.js';
import { CustomerSessionCodeAuthenticateResult } from './customer-session.type.js';

/** The customer portal's one-time-code sign-in (no credential: the e-mailed code is the proof). */
@Resolver()
export class CustomerSessionCodeResolver {
  @Mutation(() => Boolean, {
    description: 'E-mails a sign-in code to the customer with this address, if there is one. Always true.',
  })
  async requestCustomerSessionCode(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: CustomerSessionCodeRequestInput,
  ): Promise<boolean> {
    authorize(ctx.principal, CUSTOMER_SESSION_CODE);
    await ctx.services.customerSessionCodes.request(ctx, input.email, input.organizationId);
    return true;
  }

  @Mutation(() => CustomerSessionCodeAuthenticateResult, {
    description: 'Trades a sign-in code (single use, 30 minutes) for a customer session token.',
  })
  async authenticateCustomerSessionCode(
    @Ctx() ctx: BillingContext,
    @Arg('code') code: string,
  ): Promise<CustomerSessionCodeAuthenticateResult> {
    authorize(ctx.principal, CUSTOMER_SESSION_CODE);
    return ctx.services.customerSessionCodes.authenticate(ctx, code);
  }
}
