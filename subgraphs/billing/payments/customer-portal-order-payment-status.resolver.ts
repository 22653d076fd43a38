import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_PORTAL_READ } from '../customers/customer.access.js';
import { PaymentRepository } from './payment.repository.js';
import { CustomerOrderPaymentStatusType } from './payment.type.js';

/** The portal's view of an order's payment (docs/receipts.md#payment-status). */
@Resolver(() => CustomerOrderPaymentStatusType)
export class CustomerPortalOrderPaymentStatusResolver {
  @Query(() => CustomerOrderPaymentStatusType, {
    description: "The status of the latest payment of the customer's order (`no_payment` before any).",
  })
  async customerPortalOrderPaymentStatus(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
  ): Promise<CustomerOrderPaymentStatusType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    // The read path narrows a customer session to its own orders: another customer's is 404.
    await ctx.services.orders.get(ctx, id);
    const payment = await new PaymentRepository(ctx.em.fork()).latestOfOrder(id);
    return payment ? { status: payment.status, error: payment.declineMessage } : { status: 'no_payment', error: null };
  }
}
