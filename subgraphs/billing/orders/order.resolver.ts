import { Arg, Ctx, Field, FieldResolver, ID, InputType, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { AddressInput } from '../customers/customer.inputs.js';
import { storedAddress } from '../customers/customer.service.js';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CustomerType } from '../customers/customer.type.js';
import { BillingSubscriptionType } from '../subscriptions/subscription.type.js';
import { OrderStatusEnum } from '../shared/status-enums.js';
import { ORDERS_READ, ORDERS_WRITE } from './order.access.js';
import { OrderList, OrderType } from './order.type.js';
import { onReadReplica } from '../../../kit/database/read-replicas.js';

@InputType('OrderFilter')
export class OrderFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [ID], { nullable: true }) productId?: string[] | null;
  @Field(() => [String], { nullable: true, description: 'one_time | recurring' }) productBillingType?: string[] | null;
  @Field(() => [ID], { nullable: true }) discountId?: string[] | null;
  @Field(() => [ID], { nullable: true }) customerId?: string[] | null;
  @Field(() => [String], { nullable: true }) externalCustomerId?: string[] | null;
  @Field(() => [ID], { nullable: true }) checkoutId?: string[] | null;
  @Field(() => [ID], { nullable: true }) subscriptionId?: string[] | null;
  @Field(() => [OrderStatusEnum], { nullable: true }) status?: string[] | null;
  @Field(() => [String], { nullable: true }) billingReason?: string[] | null;
}

@InputType('OrderUpdateInput')
export class OrderUpdateInput {
  @Field(() => String, { nullable: true }) billingName?: string | null;
  @Field(() => AddressInput, { nullable: true }) billingAddress?: AddressInput | null;
}

const clean = (filter: OrderFilterInput | null) =>
  Object.fromEntries(Object.entries(filter ?? {}).filter(([, v]) => v != null)) as Record<string, string[]>;

/** Orders: list and get (Core API), and the orders of a subscription or a customer. */
@Resolver(() => OrderType)
export class OrderResolver {
  @Query(() => OrderList, { description: 'Orders of the organizations the caller may act for.' })
  async orders(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => OrderFilterInput, { nullable: true }) filter: OrderFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], {
      nullable: true,
      description:
        'created_at, status, invoice_number, amount, net_amount, customer, product, discount, subscription; `-` = descending. Default -created_at.',
    })
    sorting: string[] | null,
  ): Promise<OrderList> {
    authorize(ctx.principal, ORDERS_READ);
    return ctx.services.orders.list(onReadReplica(ctx), { ...clean(filter), page, limit, sorting });
  }

  @Query(() => String, { description: 'The orders as CSV (RFC 4180, header row first).' })
  async ordersExport(
    @Ctx() ctx: BillingContext,
    @Arg('organizationId', () => [ID], { nullable: true }) organizationId: string[] | null,
  ): Promise<string> {
    authorize(ctx.principal, ORDERS_READ);
    return ctx.services.orders.export(onReadReplica(ctx), organizationId);
  }

  @Mutation(() => OrderType, { description: "Sets the order's billing name and address." })
  async updateOrder(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: OrderUpdateInput,
  ): Promise<OrderType> {
    authorize(ctx.principal, ORDERS_WRITE);
    const { billingAddress, billingName } = input;
    return ctx.services.orders.update(ctx, id, {
      ...(billingName !== undefined ? { billingName } : {}),
      ...(billingAddress !== undefined
        ? { billingAddress: billingAddress ? storedAddress(billingAddress) : null }
        : {}),
    });
  }

  @Query(() => OrderType)
  async order(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<OrderType> {
    authorize(ctx.principal, ORDERS_READ);
    return ctx.services.orders.get(ctx, id);
  }
}

/**
 * `BillingSubscription.orders`: a page, like every list of the graph (docs/graphql.md#nested-lists), with the
 * orders list's filter and sorting, the subscription's own orders only; one statement for a page of subscriptions.
 */
@Resolver(() => BillingSubscriptionType)
export class SubscriptionOrdersResolver {
  @FieldResolver(() => OrderList, { description: "The subscription's orders, newest first by default." })
  async orders(
    @Root() s: BillingSubscriptionType,
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => OrderFilterInput, { nullable: true }) filter: OrderFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<OrderList> {
    authorize(ctx.principal, ORDERS_READ);
    return ctx.services.orders.ofSubscription(ctx, s.id, { ...clean(filter), page, limit, sorting });
  }
}

/** `Customer.orders`: the customer's orders, with the list's filters and sorting. */
@Resolver(() => CustomerType)
export class CustomerOrdersResolver {
  @FieldResolver(() => OrderList, { description: "The customer's orders." })
  async orders(
    @Root() customer: CustomerType,
    @Ctx() ctx: BillingContext,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
    @Arg('filter', () => OrderFilterInput, { nullable: true }) filter: OrderFilterInput | null,
  ): Promise<OrderList> {
    authorize(ctx.principal, ORDERS_READ);
    return ctx.services.orders.list(ctx, { ...clean(filter), customerId: [customer.id], page, limit, sorting });
  }
}
