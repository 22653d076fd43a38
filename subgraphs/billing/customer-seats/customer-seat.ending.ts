import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../events/record-event.js';
import type { CustomerSeat } from './customer-seat.entity.js';
import { CustomerSeatRepository } from './customer-seat.repository.js';
import { enqueueSeatBenefits, seatEvent } from './customer-seat.events.js';

/** What a revoke leaves on a seat: no holder, no member, no token (Polar reuses the row). */
export function revokedSeatFields(at: Date): Partial<CustomerSeat> {
  return {
    status: 'revoked',
    revokedAt: at,
    modifiedAt: at,
    invitationTokenHash: null,
    customerId: null,
    memberId: null,
    email: null,
  };
}

/**
 * An ended seat-based subscription revokes its live seats, as Polar's `revoke_all_seats_for_subscription`
 * does (docs/customer-seats.md#benefits): each seat as a revoke leaves it, with its `customer_seat.revoked`,
 * in the caller's transaction (the benefits reconcile, which then revokes the holders' grants).
 */
export async function endSeatsOfSubscription(em: EntityManager, subscriptionId: string, at: Date): Promise<void> {
  await revokeAll(em, await new CustomerSeatRepository(em).liveOfSubscription(subscriptionId), at);
}

/**
 * A deleted member's pending and claimed seats are revoked in the deletion's transaction
 * (docs/members.md#merchant-api), each with its `customer_seat.revoked` and its container's benefits
 * reconcile (run at `runAt`), which revokes the former holder's grants.
 */
export async function revokeSeatsOfMember(em: EntityManager, memberId: string, at: Date, runAt: Date): Promise<void> {
  const seats = await revokeAll(em, await new CustomerSeatRepository(em).liveOfMember(memberId), at);
  for (const seat of seats) await enqueueSeatBenefits(em, seat, runAt);
}

async function revokeAll(em: EntityManager, seats: CustomerSeat[], at: Date): Promise<CustomerSeat[]> {
  if (!seats.length) return seats;
  for (const seat of seats) Object.assign(seat, revokedSeatFields(at));
  await em.flush();
  for (const seat of seats) {
    const event = await seatEvent(em, 'customer_seat.revoked', seat, at);
    recordEvent(em, event.organizationId, event.type, event.payload, event.at);
  }
  return seats;
}
