import { z } from 'zod';
import { memberResponse } from './members.schemas.js';

/** Wire shapes of seats (Polar's SeatAssign, SeatClaim, CustomerSeat, SeatsList, SeatClaimInfo). */
const dateTime = z.iso.datetime({ offset: true });

/** Polar's seat metadata: any JSON values, at most 10 keys and 1 KB as JSON. */
const seatMetadata = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  if (Object.keys(value).length > 10)
    ctx.addIssue({ code: 'custom', message: 'Value error, Metadata cannot have more than 10 keys', input: value });
  else if (JSON.stringify(value).length > 1024)
    ctx.addIssue({ code: 'custom', message: 'Value error, Metadata size cannot exceed 1KB', input: value });
});

/** SeatAssign (merchant) and CustomerSeatAssign (portal): one container, at least one recipient. */
export const seatAssignBody = z
  .object({
    subscription_id: z.uuid().nullish(),
    order_id: z.uuid().nullish(),
    checkout_id: z.uuid().nullish(),
    email: z.email().nullish(),
    external_customer_id: z.string().nullish(),
    customer_id: z.uuid().nullish(),
    external_member_id: z.string().nullish(),
    member_id: z.uuid().nullish(),
    metadata: seatMetadata.nullish(),
    immediate_claim: z.boolean().optional(),
  })
  .superRefine((body, ctx) => {
    const message = (text: string) => ctx.addIssue({ code: 'custom', message: `Value error, ${text}`, input: body });
    if ([body.subscription_id, body.order_id].filter(v => v != null).length !== 1)
      return message('Exactly one of subscription_id or order_id must be provided');
    const legacy = [body.external_customer_id, body.customer_id].filter(v => v != null).length;
    const members = [body.external_member_id, body.member_id].filter(v => v != null).length;
    if (legacy + members + (body.email != null ? 1 : 0) === 0)
      return message(
        'At least one of email, external_customer_id, customer_id, external_member_id, or member_id must be provided',
      );
    if (legacy > 0 && members > 0)
      return message('Cannot combine external_customer_id/customer_id with external_member_id/member_id');
    if (members > 1) return message('Cannot provide both external_member_id and member_id');
    if (legacy > 0 && legacy + (body.email != null ? 1 : 0) !== 1)
      return message('Exactly one of email, external_customer_id, or customer_id must be provided');
    if (body.member_id != null && body.email != null) message('Cannot combine member_id with email');
  });

export const seatAssignInput = (body: z.infer<typeof seatAssignBody>) => ({
  subscriptionId: body.subscription_id ?? null,
  orderId: body.order_id ?? null,
  email: body.email ?? null,
  externalCustomerId: body.external_customer_id ?? null,
  customerId: body.customer_id ?? null,
  externalMemberId: body.external_member_id ?? null,
  memberId: body.member_id ?? null,
  metadata: body.metadata ?? null,
  immediateClaim: body.immediate_claim ?? false,
});

export const seatClaimBody = z.object({ invitation_token: z.string() });

export const customerSeatResponse = z.object({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  subscription_id: z.uuid().nullable(),
  order_id: z.uuid().nullable(),
  status: z.enum(['pending', 'claimed', 'revoked']),
  customer_id: z.uuid().nullable(),
  member_id: z.uuid().nullable(),
  member: memberResponse.nullable(),
  email: z.string().nullable(),
  customer_email: z.string().nullable(),
  invitation_token_expires_at: dateTime.nullable(),
  claimed_at: dateTime.nullable(),
  revoked_at: dateTime.nullable(),
  seat_metadata: z.record(z.string(), z.unknown()).nullable(),
});

export const seatsListResponse = z.object({
  seats: z.array(customerSeatResponse),
  available_seats: z.number().int(),
  total_seats: z.number().int(),
});

export const seatClaimInfoResponse = z.object({
  product_name: z.string(),
  product_id: z.uuid(),
  organization_name: z.string(),
  organization_slug: z.string(),
  customer_email: z.string(),
  can_claim: z.boolean(),
});

export const seatClaimResponse = z.object({ seat: customerSeatResponse, customer_session_token: z.string() });
