import type { BillingContext } from '../context.js';
import type { OrganizationRef } from './organization.type.js';
import { actsForOrganization } from '../../../kit/database/tenant-scope.js';

/**
 * `Organization` as billing resolves it: just the key, and only for organizations the principal may act
 * for (no query needed: the tenant rule decides from the principal alone).
 */
export const organizationReference = {
  Organization: {
    __resolveReference: (reference: { id: string }, ctx: BillingContext): OrganizationRef | null =>
      actsForOrganization(ctx.principal, reference.id) ? { id: reference.id } : null,
  },
};
