import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { ORDERS_WRITE } from '../orders/order.access.js';
import { OrderType } from '../orders/order.type.js';
import { OrderCreateInput } from './draft-order.inputs.js';

/** A merchant's draft orders: create, then finalize (docs/selling.md#draft-orders). */
@Resolver(() => OrderType)
export class DraftOrderResolver {
  @Mutation(() => OrderType, { description: 'A draft order for an off-session charge (finalize charges it).' })
  async createOrder(@Ctx() ctx: BillingContext, @Arg('input') input: OrderCreateInput): Promise<OrderType> {
    authorize(ctx.principal, ORDERS_WRITE);
    const { amount, metadata, customFieldData, ...rest } = input;
    return ctx.services.draftOrders.create(ctx, {
      ...rest,
      amount: amount == null ? null : Number(amount),
      metadata: metadata ?? {},
      customFieldData: customFieldData ?? {},
    });
  }

  @Mutation(() => OrderType, {
    description: "Charges a draft order off-session (the payment method named, else the customer's default).",
  })
  async finalizeOrder(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('paymentMethodId', () => ID, { nullable: true }) paymentMethodId: string | null,
  ): Promise<OrderType> {
    authorize(ctx.principal, ORDERS_WRITE);
    return ctx.services.draftOrders.finalize(ctx, id, paymentMethodId);
  }
}
