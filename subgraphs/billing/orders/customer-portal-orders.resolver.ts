import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import { customerView } from '../../../kit/graphql/customer-view.js';
import type { Principal } from '../../../kit/principal.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_PORTAL_READ, CUSTOMER_PORTAL_WRITE } from '../customers/customer.access.js';
import { retryOrderPayment } from '../subscriptions/lifecycle/retry-payment.js';
import { storedAddress } from '../customers/customer.service.js';
import { OrderUpdateInput } from './order.resolver.js';
import { ProductType } from '../products/product.type.js';
import { CustomerOrderPaymentConfirmationType, OrderList, OrderType } from './order.type.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import { CustomerOrderFilterInput } from './customer-order.filter.js';

/**
 * The authenticated customer's own orders (Polar's CustomerOrder): the read path narrows a customer
 * session to its own rows; what the portal does not show (the customer record, the discount, the
 * merchant's metadata, the product's metadata) answers 403 to a customer over GraphQL.
 */
@Resolver(() => OrderType)
export class CustomerPortalOrdersResolver {
  @Query(() => OrderList, { description: "The customer's orders (customer session token)." })
  async customerPortalOrders(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => CustomerOrderFilterInput, { nullable: true }) filter: CustomerOrderFilterInput | null,
    @Arg('productId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) productIdArg: string[] | null,
    @Arg('productBillingType', () => [String], { nullable: true, deprecationReason: FILTER_REPLACES })
    productBillingTypeArg: string[] | null,
    @Arg('subscriptionId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) subscriptionIdArg:
      | string[]
      | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<OrderList> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    const { productId, productBillingType, subscriptionId } = mergeFilter(filter, {
      productId: productIdArg,
      productBillingType: productBillingTypeArg,
      subscriptionId: subscriptionIdArg,
    });
    const result = await ctx.services.orders.list(ctx, {
      ...(productId?.length ? { productId } : {}),
      ...(productBillingType?.length ? { productBillingType } : {}),
      ...(subscriptionId?.length ? { subscriptionId } : {}),
      page,
      limit,
      sorting,
    });
    return { items: result.items.map(o => portalView(ctx.principal, o)), pagination: result.pagination };
  }

  @Query(() => OrderType)
  async customerPortalOrder(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<OrderType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    return portalView(ctx.principal, await ctx.services.orders.get(ctx, id));
  }

  @Mutation(() => OrderType, { description: "Sets the billing name and address of the customer's own order." })
  async customerPortalUpdateOrder(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: OrderUpdateInput,
  ): Promise<OrderType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_WRITE);
    const { billingAddress, billingName } = input;
    // The read path narrows a customer session to its own orders: another customer's is 404.
    const order = await ctx.services.orders.update(ctx, id, {
      ...(billingName !== undefined ? { billingName } : {}),
      ...(billingAddress !== undefined
        ? { billingAddress: billingAddress ? storedAddress(billingAddress) : null }
        : {}),
    });
    return portalView(ctx.principal, order);
  }

  @Mutation(() => CustomerOrderPaymentConfirmationType, {
    description: 'Pay a pending renewal order by hand (Polar confirm-retry-payment; at most 5 tries per order).',
  })
  async customerPortalConfirmOrderPayment(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('confirmationTokenId', () => String, { nullable: true }) confirmationTokenId: string | null,
    @Arg('paymentMethodId', () => ID, { nullable: true }) paymentMethodId: string | null,
  ): Promise<CustomerOrderPaymentConfirmationType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_WRITE);
    return retryOrderPayment(ctx, ctx.services.payments, id, { confirmationTokenId, paymentMethodId });
  }
}

function portalView(principal: Principal, order: OrderType): OrderType {
  const product = order.product
    ? customerView(principal, ProductType, order.product, { hidden: ['metadata', 'attachedCustomFields'] })
    : null;
  return customerView(
    principal,
    OrderType,
    { ...order, product },
    { hidden: ['metadata', 'customFieldData', 'customer', 'discount', 'productPrice'] },
  );
}
