import type { BillingContext } from '../context.js';
import type { OrganizationRef } from './organization.type.js';

/**
 * `Organization` as billing resolves it: just the key, and only for organizations the principal may act
 * for (no query needed: `principal.organizationIds` is the tenant scope).
 */
export const organizationReference = {
  Organization: {
    __resolveReference: (reference: { id: string }, ctx: BillingContext): OrganizationRef | null =>
      ctx.principal.organizationIds.includes(reference.id) ? { id: reference.id } : null,
  },
};
