import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import type { OwnerEmail } from '../../../kit/email/owner-mailbox.js';
import { recordOwnerNotice } from '../../../kit/email/owner-notices.js';
import type { PrincipalCache } from '../../../kit/principal-cache.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { hashToken } from '../../../kit/tokens.js';
import { OrganizationRepository } from '../organizations/organization.repository.js';
import type { User } from '../users/user.entity.js';
import { UserRepository } from '../users/user.repository.js';
import { EMAIL, type UserService } from '../users/user.service.js';
import { MemberInvitationRepository, type PendingInvitation } from './member-invitation.repository.js';
import { Membership, type MemberRole } from './membership.entity.js';
import { membershipOf } from './membership.repository.js';
import { type MembershipService, refused } from './membership.service.js';

/** How long an invitation's link works. */
const INVITATION_DAYS = 7;
const ALREADY_A_MEMBER = 'This user is already a member of the organization.';

/** What an invitation did: the person was added at once (they have an account), or invited to sign up. */
export type InviteOutcome = 'added' | 'invited';

/**
 * Invitations to join an organization (docs/dashboard.md#members), as Polar's `members/invite`: an owner or
 * admin names an e-mail; a person who has an account is a member at once, with the role, and is told so by
 * e-mail; an e-mail without an account gets an invitation whose link (`/signup?invitation=…`, 7 days, its
 * token stored only as an HMAC) signs them up and joins them with the role. The membership or invitation and
 * its e-mail (identity's owner notices, handed to billing's outbox) commit together.
 */
export class MemberInvitationService {
  constructor(
    private readonly secret: string,
    private readonly memberships: MembershipService,
    private readonly users: UserService,
    private readonly principals: PrincipalCache,
  ) {}

  /** @throws CannotManageOrganization, PolarRequestValidationError (a bad e-mail or role, a member already) */
  async invite(
    ctx: RequestContext,
    organizationId: string,
    input: { email: string; role: string; publicUrl: string },
  ): Promise<InviteOutcome> {
    const caller = await this.memberships.managerRole(ctx, organizationId);
    const role = this.memberships.checkedRole(input.role, caller);
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email))
      throw refused('email', 'Enter a valid e-mail address, such as ann@example.com.', input.email);
    const users = new UserRepository(ctx.em);
    const [user, inviter, organization] = await Promise.all([
      users.findByEmail(email),
      users.emailOf(ctx.principal.subjectId!),
      new OrganizationRepository(ctx.em).findById(organizationId),
    ]);
    if (user && (await membershipOf(ctx.em, user.id, organizationId)))
      throw refused('email', ALREADY_A_MEMBER, input.email);
    const letter = { organization: organization?.name ?? 'an organization', inviter: inviter?.email ?? 'A member' };
    const now = ctx.clock.now();
    try {
      await ctx.em.transactional(async em => {
        if (user) {
          em.create(Membership, { userId: user.id, organizationId, role, createdAt: now } as Membership);
          await em.flush();
          const link = `${input.publicUrl}/dashboard/${organizationId}`;
          await recordOwnerNotice(em, 'identity', addedEmail(user, organizationId, role, letter, link, now));
          return;
        }
        const token = randomBytes(32).toString('base64url');
        const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
        await new MemberInvitationRepository(em).upsert({
          organizationId,
          email,
          role,
          invitedBy: ctx.principal.subjectId ?? null,
          tokenHash: hashToken(token, this.secret),
          createdAt: now,
          expiresAt,
        });
        const link = `${input.publicUrl}/signup?invitation=${token}`;
        await recordOwnerNotice(em, 'identity', invitedEmail(email, organizationId, role, letter, link, expiresAt));
      });
    } catch (error) {
      // Two invitations of one user at once: the membership's unique index decides, as the check would.
      if ((error as { code?: string }).code !== '23505') throw error;
      throw refused('email', ALREADY_A_MEMBER, input.email);
    }
    if (!user) return 'invited';
    await this.principals.announce(ctx.em, { subject: 'user', subjectId: user.id });
    return 'added';
  }

  /** The live invitation of a link (the sign-up page names the organization and the role), or null. */
  async invitation(
    em: EntityManager,
    clock: Clock,
    token: string,
  ): Promise<(PendingInvitation & { organizationName: string }) | null> {
    const found = await new MemberInvitationRepository(em).live(hashToken(token, this.secret), clock.now());
    if (!found) return null;
    const organization = await new OrganizationRepository(em).findById(found.organizationId);
    return organization ? { ...found, organizationName: organization.name } : null;
  }

  /** The organization's pending invitations (for its members). */
  pending(ctx: RequestContext, organizationId: string): Promise<PendingInvitation[]> {
    return new MemberInvitationRepository(ctx.em).pendingOf(organizationId, ctx.clock.now());
  }

  /**
   * Signs up the person an invitation's link was sent to and joins them with its role, in one transaction:
   * the link is spent (once), the e-mail typed must be the invited one, and nothing is made when either fails.
   * @throws PolarRequestValidationError (the link used or expired, another e-mail, the sign-up's own refusals)
   */
  async signUp(
    ctx: { em: EntityManager; clock: Clock },
    token: string,
    email: string,
    password: string,
  ): Promise<User> {
    return ctx.em.transactional(async em => {
      const invitation = await new MemberInvitationRepository(em).take(hashToken(token, this.secret), ctx.clock.now());
      if (!invitation)
        throw refused(
          'invitation',
          'This invitation has expired or was already used. Ask for a new one, or sign up without it.',
          null,
        );
      if (invitation.email !== email.trim().toLowerCase())
        throw refused('email', `This invitation is for ${invitation.email}: sign up with that e-mail.`, email);
      const user = await this.users.create({ em, clock: ctx.clock }, email, password);
      em.create(Membership, {
        userId: user.id,
        organizationId: invitation.organizationId,
        role: invitation.role as MemberRole,
        createdAt: ctx.clock.now(),
      } as Membership);
      await em.flush();
      return user;
    });
  }
}

/** `2026-12-06 13:04 UTC`: when a link stops working, as a reader of the e-mail reads it. */
const utc = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

interface Letter {
  organization: string;
  inviter: string;
}

/** To a person who has an account: they are a member now (Polar's `organization_invite` e-mail). */
function addedEmail(
  user: User,
  organizationId: string,
  role: string,
  letter: Letter,
  link: string,
  now: Date,
): OwnerEmail {
  return {
    key: `member-added:${organizationId}:${user.id}:${now.getTime()}`,
    kind: 'organization_invite',
    organizationId,
    owner: { type: 'user', id: user.id },
    subject: `You've been added to ${letter.organization}`,
    text: `${letter.inviter} has added you to ${letter.organization} as ${role}.\n\nNothing is left to do: sign in with this e-mail address to open its dashboard.\n${link}\n`,
  };
}

/** To an e-mail without an account: the link that signs them up and joins them. */
function invitedEmail(
  email: string,
  organizationId: string,
  role: string,
  letter: Letter,
  link: string,
  expiresAt: Date,
): OwnerEmail {
  return {
    key: `member-invited:${organizationId}:${email}:${expiresAt.getTime()}`,
    kind: 'organization_invite',
    organizationId,
    owner: { type: 'address', id: email },
    subject: `You've been invited to ${letter.organization}`,
    text: `${letter.inviter} has invited you to join ${letter.organization} as ${role}.\n\nTo accept, open this link and sign up with this e-mail address (${email}): your account is created and joins ${letter.organization} at once.\n${link}\n\nThe link works once, for ${INVITATION_DAYS} days: until ${utc(expiresAt)}. After that, ask for a new invitation.\n`,
    redactAt: expiresAt.toISOString(),
  };
}
