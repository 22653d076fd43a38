// The write walk's calls of customer seats, merchant and portal (test/sdk/v1-write-walk.sdk.test.ts), run where
// write-calls.ts spreads them: after the portal's calls, before the webhooks'.
import { NOWHERE } from './calls.js';
import { badId, id, type WriteCall } from './write-call.js';
import { eventually, type WriteWorld } from './write-seed.js';

export const SEAT_CALLS: Record<string, WriteCall> = {
  // The seeded pending seat: resent and revoked, which frees a seat for the next assignments.
  'customerSeats.resendInvitation': {
    args: async w => [(await seatsOf(w)).find(seat => seat.status === 'pending')?.id ?? NOWHERE],
    bad: badId,
  },
  'customerSeats.revokeSeat': { args: (_, m) => [id('customerSeats.resendInvitation')(m)], bad: badId },
  'customerSeats.assignSeat': {
    args: w => [{ subscription_id: w.ids.seatSubscription, email: 'write-seat@example.com' }],
    bad: { args: w => [{ subscription_id: w.ids.seatSubscription, email: 5 }] },
  },
  'customerPortal.seats.resendInvitation': {
    as: 'seatPortal',
    args: (_, m) => [id('customerSeats.assignSeat')(m)],
    bad: badId,
  },
  'customerPortal.seats.revokeSeat': {
    as: 'seatPortal',
    args: (_, m) => [id('customerSeats.assignSeat')(m)],
    bad: badId,
  },
  'customerPortal.seats.assignSeat': {
    as: 'seatPortal',
    args: w => [{ subscription_id: w.ids.seatSubscription, email: 'write-portal-seat@example.com' }],
    bad: { args: w => [{ subscription_id: w.ids.seatSubscription, email: 5 }] },
  },
  'customerSeats.claimSeat': {
    as: 'anonymous',
    args: async w => [{ invitation_token: await invitationTo(w, 'write-portal-seat@example.com') }],
    bad: { args: () => [{ invitation_token: 5 }] },
  },
};

async function seatsOf(w: WriteWorld): Promise<{ id: string; status: string }[]> {
  return (await w.api('GET', `/v1/customer-seats?subscription_id=${w.ids.seatSubscription}`)).seats;
}

/** The invitation token e-mailed to `email`, read from the outbox as from the inbox. */
async function invitationTo(w: WriteWorld, email: string): Promise<string> {
  return eventually(async () => {
    const [mail] = await w.sql<{ text_body: string }>(
      'billing',
      `select text_body from billing.outgoing_emails where kind = 'customer_seat_invitation' and to_address = ?
        order by created_at desc limit 1`,
      [email],
    );
    return /Your invitation token: (\S+)/.exec(mail?.text_body ?? '')?.[1];
  });
}
