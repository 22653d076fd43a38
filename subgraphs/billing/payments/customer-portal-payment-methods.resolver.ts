import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_PORTAL_READ, CUSTOMER_PORTAL_WRITE } from '../customers/customer.access.js';
import { CustomerPaymentMethodConfirmInput, CustomerPaymentMethodCreateInput } from './payment-method.inputs.js';
import {
  CustomerPaymentMethodCreateResultType,
  CustomerPaymentMethodList,
  CustomerPaymentMethodType,
} from './payment-method.type.js';

/** The signed-in customer's saved payment methods (customer session token), payment-method.service.ts. */
@Resolver(() => CustomerPaymentMethodType)
export class CustomerPortalPaymentMethodsResolver {
  @Query(() => CustomerPaymentMethodList, { description: "The customer's saved payment methods, newest first." })
  async customerPortalPaymentMethods(
    @Ctx() ctx: BillingContext,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
  ): Promise<CustomerPaymentMethodList> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    return ctx.services.paymentMethods.list(ctx, { page, limit });
  }

  @Mutation(() => CustomerPaymentMethodCreateResultType, {
    description: 'Saves a payment method for later charges (no money moves).',
  })
  async customerPortalAddPaymentMethod(
    @Ctx() ctx: BillingContext,
    @Arg('input', () => CustomerPaymentMethodCreateInput) input: CustomerPaymentMethodCreateInput,
  ): Promise<CustomerPaymentMethodCreateResultType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_WRITE);
    return ctx.services.paymentMethods.add(ctx, input);
  }

  @Mutation(() => CustomerPaymentMethodCreateResultType, {
    description: 'Keeps a payment method whose setup waited for 3-D Secure, once the customer authenticated.',
  })
  async customerPortalConfirmPaymentMethod(
    @Ctx() ctx: BillingContext,
    @Arg('input', () => CustomerPaymentMethodConfirmInput) input: CustomerPaymentMethodConfirmInput,
  ): Promise<CustomerPaymentMethodCreateResultType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_WRITE);
    return ctx.services.paymentMethods.confirm(ctx, input);
  }

  @Mutation(() => Boolean, { description: 'Removes a saved payment method.' })
  async customerPortalDeletePaymentMethod(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
  ): Promise<boolean> {
    authorize(ctx.principal, CUSTOMER_PORTAL_WRITE);
    await ctx.services.paymentMethods.delete(ctx, id);
    return true;
  }
}
