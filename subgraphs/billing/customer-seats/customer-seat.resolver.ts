import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_SEAT_CLAIM, CUSTOMER_SEATS_READ, CUSTOMER_SEATS_WRITE } from './customer-seat.access.js';
import { CustomerSeatAssignInput } from './customer-seat.inputs.js';
import { CustomerSeatClaimType, CustomerSeatType, SeatClaimInfoType, SeatsListType } from './customer-seat.type.js';

/** Seats of the Core API (`/v1/customer-seats/`) and the invitation's claim. Thin. */
@Resolver(() => CustomerSeatType)
export class CustomerSeatResolver {
  @Query(() => SeatsListType, { description: 'The seats of one subscription or order (give one of the two ids).' })
  async customerSeats(
    @Ctx() ctx: BillingContext,
    @Arg('subscriptionId', () => ID, { nullable: true }) subscriptionId: string | null,
    @Arg('orderId', () => ID, { nullable: true }) orderId: string | null,
  ): Promise<SeatsListType> {
    authorize(ctx.principal, CUSTOMER_SEATS_READ);
    return ctx.services.customerSeats.list(ctx, { subscriptionId, orderId });
  }

  @Mutation(() => CustomerSeatType)
  async assignCustomerSeat(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: CustomerSeatAssignInput,
  ): Promise<CustomerSeatType> {
    authorize(ctx.principal, CUSTOMER_SEATS_WRITE);
    return ctx.services.customerSeats.assign(ctx, input);
  }

  @Mutation(() => CustomerSeatType)
  async revokeCustomerSeat(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<CustomerSeatType> {
    authorize(ctx.principal, CUSTOMER_SEATS_WRITE);
    return ctx.services.customerSeats.revoke(ctx, id);
  }

  @Mutation(() => CustomerSeatType, { description: 'A new invitation (a new token) for a pending seat.' })
  async resendCustomerSeatInvitation(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
  ): Promise<CustomerSeatType> {
    authorize(ctx.principal, CUSTOMER_SEATS_WRITE);
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
}
