import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../events/record-event.js';
import { CustomerSeatRepository } from './customer-seat.repository.js';
import { seatEvent } from './customer-seat.events.js';

/**
 * An ended seat-based subscription revokes its live seats, as Polar's `revoke_all_seats_for_subscription`
 * does (docs/customer-seats.md#benefits): each seat as a revoke leaves it, with its `customer_seat.revoked`,
 * in the caller's transaction (the benefits reconcile, which then revokes the holders' grants).
 */
export async function endSeatsOfSubscription(em: EntityManager, subscriptionId: string, at: Date): Promise<void> {
  const seats = await new CustomerSeatRepository(em).liveOfSubscription(subscriptionId);
  if (!seats.length) return;
  for (const seat of seats)
    Object.assign(seat, {
      status: 'revoked',
      revokedAt: at,
      modifiedAt: at,
      invitationTokenHash: null,
      customerId: null,
      memberId: null,
      email: null,
    });
  await em.flush();
  for (const seat of seats) {
    const event = await seatEvent(em, 'customer_seat.revoked', seat, at);
    recordEvent(em, event.organizationId, event.type, event.payload, event.at);
  }
}
