import { PolarRequestValidationError, ResourceNotFound } from '../../../kit/errors.js';
import { PrincipalCache } from '../../../kit/principal-cache.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { CannotManageOrganization } from '../organizations/organization.errors.js';
import { OrganizationRepository } from '../organizations/organization.repository.js';
import { UserRepository } from '../users/user.repository.js';
import { Membership, MemberRole } from './membership.entity.js';
import { lockedOwners, membershipOf } from './membership.repository.js';

const ROLES = new Set<string>(Object.values(MemberRole));

export const refused = (field: string, msg: string, input: unknown) =>
  new PolarRequestValidationError([{ type: 'value_error', loc: ['body', field], msg, input }]);

/**
 * An organization's members managed by its owners and admins (the dashboard's Members page,
 * docs/dashboard.md#members): change a member's role, remove one (they join by invitation,
 * member-invitation.service.ts). The caller's right is the one `organizations:update` checks (an owner or
 * admin, `OrganizationRepository.canManage`); only an owner gives or takes the owner role, and the last owner
 * is never removed nor given another role.
 */
export class MembershipService {
  /** A membership gone or made changes what the user's principals may reach: their cached principals go. */
  constructor(private readonly principals: PrincipalCache = new PrincipalCache()) {}

  /** @throws CannotManageOrganization, ResourceNotFound (not a member), PolarRequestValidationError (last owner, role) */
  async changeRole(ctx: RequestContext, organizationId: string, email: string, role: string): Promise<void> {
    const caller = await this.managerRole(ctx, organizationId);
    const chosen = this.checkedRole(role, caller);
    await this.withOwnersLocked(ctx, organizationId, email, async (membership, owners, em) => {
      if (membership.role === MemberRole.OWNER && caller !== MemberRole.OWNER)
        throw refused('role', 'Only an owner can change the role of an owner.', role);
      if (membership.role === MemberRole.OWNER && chosen !== MemberRole.OWNER && owners === 1)
        throw refused('role', "The organization's last owner cannot be given another role.", role);
      membership.role = chosen;
      await em.flush();
    });
  }

  /** @throws CannotManageOrganization, ResourceNotFound (not a member), PolarRequestValidationError (last owner) */
  async remove(ctx: RequestContext, organizationId: string, email: string): Promise<void> {
    const caller = await this.managerRole(ctx, organizationId);
    const userId = await this.withOwnersLocked(ctx, organizationId, email, async (membership, owners, em) => {
      if (membership.role === MemberRole.OWNER && caller !== MemberRole.OWNER)
        throw refused('email', 'Only an owner can remove an owner.', email);
      if (membership.role === MemberRole.OWNER && owners === 1)
        throw refused('email', "The organization's last owner cannot be removed.", email);
      em.remove(membership);
      await em.flush();
      return membership.userId;
    });
    await this.principals.announce(ctx.em, { subject: 'user', subjectId: userId });
  }

  /** The caller's role when they may manage the organization (as `organizations:update` decides). */
  async managerRole(ctx: RequestContext, organizationId: string): Promise<MemberRole> {
    const repository = new OrganizationRepository(ctx.em);
    if (!(await repository.canManage(ctx.principal, organizationId))) throw new CannotManageOrganization();
    return (await repository.roleOf(ctx.principal.subjectId!, organizationId)) as MemberRole;
  }

  checkedRole(role: string, caller: MemberRole): MemberRole {
    if (!ROLES.has(role)) throw refused('role', 'Choose owner, admin or member.', role);
    if (role === MemberRole.OWNER && caller !== MemberRole.OWNER)
      throw refused('role', 'Only an owner can make another owner.', role);
    return role as MemberRole;
  }

  /**
   * Runs `change` on the member of that e-mail in a transaction that holds the organization's owner rows
   * locked, so two changes at once cannot both see "another owner is left" and leave none.
   */
  private async withOwnersLocked<T>(
    ctx: RequestContext,
    organizationId: string,
    email: string,
    change: (membership: Membership, owners: number, em: RequestContext['em']) => Promise<T>,
  ): Promise<T> {
    const user = await new UserRepository(ctx.em).findByEmail(email.trim().toLowerCase());
    if (!user) throw new ResourceNotFound();
    return ctx.em.transactional(async em => {
      const owners = await lockedOwners(em, organizationId);
      const membership = await membershipOf(em, user.id, organizationId);
      if (!membership) throw new ResourceNotFound();
      return change(membership, owners.length, em);
    });
  }
}
