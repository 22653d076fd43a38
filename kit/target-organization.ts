import { PolarRequestValidationError } from './errors.js';
import { actingOrganization, actsForOrganization, soleOrganization } from './database/tenant-scope.js';
import type { Principal } from './principal.js';

/**
 * Which organization a create call acts for (docs/data-access.md, "Tenant scope"): an organization
 * token acts for its own and must not name one; a user names one they can access, unless their token
 * is down-scoped to exactly one organization or the request's `Polar-Organization` header names one
 * (docs/principals.md#polar-organization). Access is the tenant rule's (`actsForOrganization`)
 * unless the subgraph that owns the memberships decides it (`isAccessible`).
 */
export async function targetOrganization(
  principal: Principal,
  organizationId: string | null | undefined,
  isAccessible: (organizationId: string) => Promise<boolean> = async id => actsForOrganization(principal, id),
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
    const sole = soleOrganization(principal);
    if (sole) return sole;
    throw new PolarRequestValidationError([
      { type: 'missing', loc: ['body', 'organization_id'], msg: 'organization_id is required.', input: null },
    ]);
  }
  // A request narrowed to one organization by its Polar-Organization header creates in that one only:
  // naming another is a conflict in the request itself, said as such rather than as an unknown id.
  const acting = actingOrganization(principal);
  if (acting && organizationId !== acting) {
    throw new PolarRequestValidationError([
      {
        type: 'value_error',
        loc: ['body', 'organization_id'],
        msg: `organization_id differs from the Polar-Organization header (${acting}).`,
        input: organizationId,
      },
    ]);
  }
  if (!(await isAccessible(organizationId))) {
    throw new PolarRequestValidationError([
      { type: 'value_error', loc: ['body', 'organization_id'], msg: 'Organization not found.', input: organizationId },
    ]);
  }
  return organizationId;
}
