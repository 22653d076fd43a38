import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { customerView } from '../../../kit/graphql/customer-view.js';
import { BillingSubscriptionList, BillingSubscriptionType } from '../subscriptions/subscription.type.js';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_PORTAL_SEATS_READ, CUSTOMER_SEAT_CLAIM, seatRule } from './customer-seat.access.js';
import { CustomerSeatAssignInput } from './customer-seat.inputs.js';
import { CustomerSeatClaimType, CustomerSeatType, SeatClaimInfoType, SeatsListType } from './customer-seat.type.js';

/**
 * Seats of the Core API (`/v1/customer-seats/`) and of the buyer's portal (`/v1/customer-portal/seats`,
 * the same operations under the portal's rule), the invitation's claim, and the subscriptions a
 * customer holds a claimed seat of. Thin.
 */
@Resolver(() => CustomerSeatType)
export class CustomerSeatResolver {
  @Query(() => SeatsListType, { description: 'The seats of one subscription or order (give one of the two ids).' })
  async customerSeats(
    @Ctx() ctx: BillingContext,
    @Arg('subscriptionId', () => ID, { nullable: true }) subscriptionId: string | null,
    @Arg('orderId', () => ID, { nullable: true }) orderId: string | null,
  ): Promise<SeatsListType> {
    authorize(ctx.principal, seatRule(ctx.principal, 'read'));
    return ctx.services.customerSeats.list(ctx, { subscriptionId, orderId });
  }

  @Mutation(() => CustomerSeatType)
  async assignCustomerSeat(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: CustomerSeatAssignInput,
  ): Promise<CustomerSeatType> {
    authorize(ctx.principal, seatRule(ctx.principal, 'write'));
    return ctx.services.customerSeats.assign(ctx, input);
  }

  @Mutation(() => CustomerSeatType)
  async revokeCustomerSeat(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<CustomerSeatType> {
    authorize(ctx.principal, seatRule(ctx.principal, 'write'));
    return ctx.services.customerSeats.revoke(ctx, id);
  }

  @Mutation(() => CustomerSeatType, { description: 'A new invitation (a new token) for a pending seat.' })
  async resendCustomerSeatInvitation(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
  ): Promise<CustomerSeatType> {
    authorize(ctx.principal, seatRule(ctx.principal, 'write'));
    return ctx.services.customerSeats.resendInvitation(ctx, id);
  }

  @Query(() => SeatClaimInfoType)
  async customerSeatClaimInfo(
    @Ctx() ctx: BillingContext,
    @Arg('invitationToken') invitationToken: string,
  ): Promise<SeatClaimInfoType> {
    authorize(ctx.principal, CUSTOMER_SEAT_CLAIM);
    return ctx.services.customerSeats.claimInfo(ctx, invitationToken);
  }

  @Mutation(() => CustomerSeatClaimType)
  async claimCustomerSeat(
    @Ctx() ctx: BillingContext,
    @Arg('invitationToken') invitationToken: string,
  ): Promise<CustomerSeatClaimType> {
    authorize(ctx.principal, CUSTOMER_SEAT_CLAIM);
    return ctx.services.customerSeats.claim(ctx, invitationToken);
  }

  @Query(() => BillingSubscriptionList, {
    description: 'The subscriptions in which the signed-in customer holds a claimed seat (customer session token).',
  })
  async customerPortalClaimedSubscriptions(
    @Ctx() ctx: BillingContext,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
  ): Promise<BillingSubscriptionList> {
    authorize(ctx.principal, CUSTOMER_PORTAL_SEATS_READ);
    const result = await ctx.services.customerSeats.claimedSubscriptions(ctx, { page, limit });
    // What the portal shows of a subscription (as customerPortalSubscriptions does).
    const items = result.items.map(s =>
      customerView(ctx.principal, BillingSubscriptionType, s, { hidden: ['metadata', 'customFieldData'] }),
    );
    return { items, pagination: result.pagination };
  }
}
