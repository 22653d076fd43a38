import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toDate } from '../../../kit/database/read/values.js';
import { Metadata } from '../shared/scalars.js';
import type { Member } from '../members/member.entity.js';
import { MemberType } from '../members/member.type.js';
import type { CustomerSeat, SeatStatus } from './customer-seat.entity.js';

const SIMPLE = { simpleResolvers: true } as const;

/** A seat as Polar serves it (CustomerSeat), with its member when it has one (docs/customer-seats.md). */
@ObjectType('CustomerSeat', SIMPLE)
export class CustomerSeatType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => ID, { nullable: true }) subscriptionId!: string | null;
  @Field(() => ID, { nullable: true }) orderId!: string | null;
  @Field(() => String, { description: 'pending, claimed or revoked.' }) status!: SeatStatus;
  @Field(() => ID, { nullable: true, description: "The seat holder's customer." }) customerId!: string | null;
  @Field(() => ID, { nullable: true }) memberId!: string | null;
  @Field(() => MemberType, { nullable: true, description: 'The member the seat was given to.' })
  member!: MemberType | null;
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field(() => String, { nullable: true, description: "The seat holder's e-mail." }) customerEmail!: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) invitationTokenExpiresAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) claimedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) revokedAt!: Date | null;
  @Field(() => Metadata, { nullable: true }) seatMetadata!: Record<string, unknown> | null;

  /** THE public shape of a seat, from a row of `customerSeatRead` (`r` the seat, `customer_email`, `member`). */
  static fromRow(row: ReadRow): CustomerSeatType {
    const s = row.r as CustomerSeat;
    return {
      id: s.id,
      createdAt: toDate(s.createdAt) as Date,
      modifiedAt: toDate(s.modifiedAt),
      subscriptionId: s.subscriptionId,
      orderId: s.orderId,
      status: s.status,
      customerId: s.customerId,
      memberId: s.memberId,
      member: row.member ? MemberType.fromEntity(row.member as Member) : null,
      email: s.email,
      customerEmail: (row.customer_email as string | null) ?? null,
      invitationTokenExpiresAt: toDate(s.invitationTokenExpiresAt),
      claimedAt: toDate(s.claimedAt),
      revokedAt: toDate(s.revokedAt),
      seatMetadata: s.seatMetadata ?? {},
    };
  }
}

/** The seats of one subscription or order, with how many are left (Polar's SeatsList). */
@ObjectType('SeatsList', SIMPLE)
export class SeatsListType {
  @Field(() => [CustomerSeatType]) seats!: CustomerSeatType[];
  @Field(() => Int) availableSeats!: number;
  @Field(() => Int) totalSeats!: number;
}

/** What an invitation shows before it is claimed (Polar's SeatClaimInfo): read-only, safe for link scanners. */
@ObjectType('SeatClaimInfo', SIMPLE)
export class SeatClaimInfoType {
  @Field() productName!: string;
  @Field(() => ID) productId!: string;
  @Field() organizationName!: string;
  @Field() organizationSlug!: string;
  @Field() customerEmail!: string;
  @Field() canClaim!: boolean;
}

/** A claimed seat and the seat holder's new portal session (Polar's CustomerSeatClaimResponse). */
@ObjectType('CustomerSeatClaim', SIMPLE)
export class CustomerSeatClaimType {
  @Field(() => CustomerSeatType) seat!: CustomerSeatType;
  @Field() customerSessionToken!: string;
}
