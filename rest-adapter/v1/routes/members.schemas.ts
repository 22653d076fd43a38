import { z } from 'zod';

const memberRole = z.enum(['owner', 'billing_manager', 'member']);
/** Polar's MemberNameInput: at most 256 characters, an empty string is no name. */
const memberName = z
  .string()
  .max(256)
  .transform(v => (v === '' ? null : v));

/** Polar's Member. */
export const memberResponse = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  customer_id: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  external_id: z.string().nullable(),
  role: memberRole,
});

/** Polar's CustomerPortalMember: a member without its customer and external ids. */
export const customerPortalMemberResponse = memberResponse.omit({ customer_id: true, external_id: true });

/** MemberCreateFromCustomer: `role` is member or billing_manager (ownership is moved, never created). */
export const memberCreateBody = z.object({
  email: z.email(),
  name: memberName.nullish(),
  external_id: z.string().nullish(),
  role: z.enum(['member', 'billing_manager']).default('member'),
});

/** MemberOwnerCreate: `owner` of a customer's create; a blank field falls back to the customer's. */
export const memberOwnerCreate = memberCreateBody.omit({ role: true });

export const memberUpdateBody = z.object({
  name: memberName.nullish(),
  email: z.email().nullish(),
  role: memberRole.nullish(),
});

export const customerPortalMemberCreateBody = z.object({
  email: z.email(),
  name: z.string().nullish(),
  role: memberRole.default('member'),
});

export const customerPortalMemberUpdateBody = z.object({ name: memberName.nullish(), role: memberRole.nullish() });

/** Polar's PortalAuthenticatedUser. */
export const portalAuthenticatedUserResponse = z.object({
  type: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  customer_id: z.uuid(),
  member_id: z.uuid().nullable(),
  role: z.string().nullable(),
});

/** The portal's view of a member (CustomerPortalMember). */
export function customerPortalMemberWire(member: Record<string, unknown>): Record<string, unknown> {
  const { customer_id: _customer, external_id: _external, ...rest } = member;
  return rest;
}
