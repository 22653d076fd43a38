import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMERS_READ } from '../customers/customer.access.js';
import { CustomerPaymentMethodList, CustomerPaymentMethodType } from './payment-method.type.js';

/**
 * A customer's saved payment methods as the merchant sees them (Polar's `/v1/customers/{id}/payment-methods`
 * and its external-id twin): the customer must be readable by the caller (404 otherwise), then its methods.
 */
@Resolver(() => CustomerPaymentMethodType)
export class CustomerPaymentMethodsResolver {
  @Query(() => CustomerPaymentMethodList, { description: "A customer's saved payment methods, newest first." })
  async customerPaymentMethods(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
  ): Promise<CustomerPaymentMethodList> {
    authorize(ctx.principal, CUSTOMERS_READ);
    const customer = await ctx.services.customers.get(ctx, id);
    return ctx.services.paymentMethods.listOfCustomer(ctx, customer.id, { page, limit });
  }

  @Query(() => CustomerPaymentMethodList, {
    description: 'The saved payment methods of the customer with this external id, newest first.',
  })
  async customerPaymentMethodsByExternalId(
    @Ctx() ctx: BillingContext,
    @Arg('externalId') externalId: string,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
  ): Promise<CustomerPaymentMethodList> {
    authorize(ctx.principal, CUSTOMERS_READ);
    const customer = await ctx.services.customers.getByExternalId(ctx, externalId);
    return ctx.services.paymentMethods.listOfCustomer(ctx, customer.id, { page, limit });
  }
}
