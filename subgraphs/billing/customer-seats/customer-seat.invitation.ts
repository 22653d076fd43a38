import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrganizationProfile } from '../../identity/contract.js';
import { queueEmail } from '../emails/email-outbox.js';
import type { CustomerSeatRepository, SeatContainer } from './customer-seat.repository.js';

/** How long an invitation can be claimed (Polar: one day). */
export const SEAT_INVITATION_TTL_MS = 24 * 60 * 60 * 1000;

export interface SeatInvitation {
  organizationId: string;
  organizationName: string | null;
  organizationSlug: string | null;
  productName: string;
  /** Who bought the seats (the billing customer's e-mail or name). */
  billingManager: string;
  to: string;
  token: string;
  expiresAt: Date;
}

/**
 * Queues the invitation e-mail in the caller's transaction (docs/email.md): the seat and its message
 * commit together. The message carries the token, so its bodies are blanked when the token expires.
 * The link goes to the portal's claim page with the token (docs/customer-seats.md#the-rules), which
 * claims it through `POST /v1/customer-seats/claim`.
 */
export function queueSeatInvitation(
  em: EntityManager,
  publicUrl: string,
  invitation: SeatInvitation,
  now: Date,
): Promise<string> {
  const seller = invitation.organizationName ?? 'the seller';
  const base = publicUrl.replace(/\/+$/, '');
  const portal = invitation.organizationSlug
    ? `${base}/portal/${encodeURIComponent(invitation.organizationSlug)}`
    : `${base}/portal`;
  const url = `${portal}/claim?invitation_token=${encodeURIComponent(invitation.token)}`;
  return queueEmail(
    em,
    {
      kind: 'customer_seat_invitation',
      organizationId: invitation.organizationId,
      fromName: invitation.organizationName ?? undefined,
      redactAt: invitation.expiresAt,
      to: invitation.to,
      subject: `You've been invited to ${invitation.productName} by ${seller}`,
      text: [
        `${invitation.billingManager} gave you a seat of ${invitation.productName} from ${seller}.`,
        '',
        `Claim it at ${url}`,
        '',
        `Your invitation token: ${invitation.token}`,
        `It works once and expires on ${invitation.expiresAt.toISOString()}.`,
      ].join('\n'),
    },
    now,
  );
}

/**
 * The invitation of a seat of `container`, named after its product and whoever manages its seats (the
 * buyer), queued in the caller's transaction; answers the e-mail's outbox key. Assign and resend share it.
 */
export async function inviteToSeat(
  em: EntityManager,
  publicUrl: string,
  seats: CustomerSeatRepository,
  container: SeatContainer | null,
  profile: OrganizationProfile | null,
  now: Date,
  {
    buyerId,
    ...invitation
  }: { organizationId: string; buyerId: string | null; to: string; token: string; expiresAt: Date },
): Promise<string> {
  const product = await seats.findProduct(container);
  const buyer = await seats.findCustomer(buyerId);
  return queueSeatInvitation(
    em,
    publicUrl,
    {
      organizationName: profile?.name ?? null,
      organizationSlug: profile?.slug ?? null,
      productName: product?.name ?? 'your purchase',
      billingManager: buyer?.email ?? buyer?.name ?? 'Your team',
      ...invitation,
    },
    now,
  );
}
