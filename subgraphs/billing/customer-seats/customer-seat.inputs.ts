import { Field, ID, InputType } from 'type-graphql';
import { Metadata } from '../shared/scalars.js';

/** SeatAssign / CustomerSeatAssign: the container (one of two ids), who gets the seat (one of three). */
@InputType('CustomerSeatAssignInput')
export class CustomerSeatAssignInput {
  @Field(() => ID, { nullable: true }) subscriptionId?: string | null;
  @Field(() => ID, { nullable: true }) orderId?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) externalCustomerId?: string | null;
  @Field(() => ID, { nullable: true }) customerId?: string | null;
  @Field(() => String, { nullable: true }) externalMemberId?: string | null;
  @Field(() => ID, { nullable: true }) memberId?: string | null;
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, unknown> | null;
  @Field(() => Boolean, { nullable: true, description: 'Claimed at once, no invitation (merchant API only).' })
  immediateClaim?: boolean | null;
}
