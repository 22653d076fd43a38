import { PolarRequestValidationError } from './errors.js';
import type { Principal } from './principal.js';

/**
 * Which organization a create call acts for (polar-api.md §5.3 step 4): an organization token acts
 * for its own and must not name one; a user names one they can access, unless their token is
 * down-scoped to exactly one organization.
 */
export async function targetOrganization(
  principal: Principal,
  organizationId: string | null | undefined,
  isAccessible: (organizationId: string) => Promise<boolean>,
): Promise<string> {
  if (principal.subject === 'organization') {
    if (organizationId) {
      throw new PolarRequestValidationError([
        {
          type: 'organization_token',
          loc: ['body', 'organization_id'],
          msg: 'Setting organization_id is disallowed when using an organization token.',
          input: organizationId,
        },
      ]);
    }
    return principal.subjectId!;
  }
  if (!organizationId) {
    if (principal.credential === 'oauth2_token' && principal.organizationIds.length === 1)
      return principal.organizationIds[0];
    throw new PolarRequestValidationError([
      { type: 'missing', loc: ['body', 'organization_id'], msg: 'organization_id is required.', input: null },
    ]);
  }
  if (!(await isAccessible(organizationId))) {
    throw new PolarRequestValidationError([
      { type: 'value_error', loc: ['body', 'organization_id'], msg: 'Organization not found.', input: organizationId },
    ]);
  }
  return organizationId;
}
