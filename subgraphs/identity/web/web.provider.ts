import { isUuid } from '../../../kit/uuid.js';
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import { PolarRequestValidationError, ResourceNotFound, Unauthorized } from '../../../kit/errors.js';
import type { Principal } from '../../../kit/principal.js';
import type { IdentityContext } from '../context.js';
import { MANAGING_ROLES, MemberRole } from '../memberships/membership.entity.js';
import { memberRolesOf, membersOf } from '../memberships/membership.repository.js';
import { OrganizationRepository } from '../organizations/organization.repository.js';
import type { IdentityServices } from '../services.js';
import type { OrganizationAccessToken } from '../tokens/organization-access-token.entity.js';
import { OrganizationAccessTokenRepository } from '../tokens/organization-access-token.repository.js';
import { UserRepository } from '../users/user.repository.js';
import type {
  InvitationRow,
  InvitationView,
  MemberRow,
  OrganizationPage,
  OrganizationSummary,
  TokenRow,
  WebIdentity,
  WebSession,
} from './web.contract.js';

/** The pages show one page of organizations and of tokens. */
const PAGE = 100;

/**
 * The web contract served in-process (embedded topology; in the distributed topology the identity
 * process serves this same object over signed JSON RPC). Every call runs on its own EntityManager
 * fork and answers plain JSON.
 */
export class InProcessWebIdentity implements WebIdentity {
  constructor(
    private readonly orm: MikroORM,
    private readonly services: IdentityServices,
    private readonly clock: Clock,
  ) {}

  private base() {
    return { em: this.orm.em.fork(), clock: this.clock };
  }

  /** The identity context of a signed-in person; the pages act for users only. */
  private context(principal: Principal): IdentityContext & { userId: string } {
    if (principal.subject !== 'user' || !principal.subjectId) throw new Unauthorized();
    return {
      ...this.base(),
      principal,
      requestId: randomUUID(),
      services: this.services,
      userId: principal.subjectId,
    };
  }

  private async startSession(userId: string, previousSessionId: string | null): Promise<WebSession> {
    const ctx = this.base();
    if (previousSessionId) await this.services.sessions.revoke(ctx, previousSessionId);
    const { session, raw } = await this.services.sessions.create(ctx, userId);
    return { token: raw, lifetimeMs: session.expiresAt.getTime() - session.createdAt.getTime() };
  }

  async signIn(email: string, password: string, previousSessionId: string | null): Promise<WebSession | null> {
    // NOTE: the same answer, after the same scrypt work, for an unknown e-mail and a wrong password.
    const user = await this.services.users.authenticate(this.orm.em.fork(), email, password);
    return user ? this.startSession(user.id, previousSessionId) : null;
  }

  async signUp(
    email: string,
    password: string,
    previousSessionId: string | null,
    invitation?: string | null,
  ): Promise<WebSession> {
    let userId: string;
    try {
      userId = invitation
        ? (await this.services.invitations.signUp(this.base(), invitation, email, password)).id
        : (await this.services.users.create(this.base(), email, password)).id;
    } catch (error) {
      // Two sign-ups with one e-mail at once: the unique index decides, with the same answer as the check.
      if ((error as { code?: string }).code !== '23505') throw error;
      throw new PolarRequestValidationError([
        { type: 'value_error', loc: ['body', 'email'], msg: 'A user with this email already exists.', input: email },
      ]);
    }
    return this.startSession(userId, previousSessionId);
  }

  async invitation(token: string): Promise<InvitationView | null> {
    if (typeof token !== 'string' || !token) return null;
    const found = await this.services.invitations.invitation(this.orm.em.fork(), this.clock, token);
    return found && { email: found.email, role: found.role, organizationName: found.organizationName };
  }

  async signOut(sessionId: string): Promise<void> {
    await this.services.sessions.revoke(this.base(), sessionId);
  }

  async account(principal: Principal): Promise<{ email: string } | null> {
    const { em, userId } = this.context(principal);
    const row = await new UserRepository(em).emailOf(userId);
    return row ? { email: row.email } : null;
  }

  async organizations(principal: Principal): Promise<OrganizationSummary[]> {
    const ctx = this.context(principal);
    const [{ items }, memberships] = await Promise.all([
      this.services.organizations.list(ctx, { page: 1, limit: PAGE, sorting: ['name'] }),
      memberRolesOf(ctx.em, ctx.userId),
    ]);
    const roles = new Map(memberships.map(m => [m.organizationId, m.role]));
    return items.map(o => ({ id: o.id, name: o.name, slug: o.slug, role: roles.get(o.id) ?? MemberRole.MEMBER }));
  }

  async createOrganization(principal: Principal, input: { name: string; slug: string }): Promise<{ id: string }> {
    const organization = await this.services.organizations.create(this.context(principal), input);
    return { id: organization.id };
  }

  async organization(principal: Principal, organizationId: string): Promise<OrganizationPage> {
    const ctx = this.context(principal);
    const organization = await this.organizationOf(ctx, organizationId);
    const { items } = await this.services.organizationAccessTokens.list(ctx, {
      organizationId,
      page: 1,
      limit: PAGE,
    });
    return { organization, tokens: items.map(tokenRow) };
  }

  async createOrganizationAccessToken(
    principal: Principal,
    organizationId: string,
    input: { comment: string; scopes: string[]; expiresIn: string | null },
  ): Promise<{ raw: string; token: TokenRow }> {
    const ctx = this.context(principal);
    await this.organizationOf(ctx, organizationId);
    const { raw, token } = await this.services.organizationAccessTokens.create(ctx, { organizationId, ...input });
    return { raw, token: tokenRow(token) };
  }

  async revokeOrganizationAccessToken(principal: Principal, organizationId: string, tokenId: string): Promise<void> {
    const ctx = this.context(principal);
    await this.organizationOf(ctx, organizationId);
    const token = isUuid(tokenId)
      ? await new OrganizationAccessTokenRepository(ctx.em).findUndeletedOfOrganization(tokenId, organizationId)
      : null;
    if (!token) throw new ResourceNotFound();
    await this.services.organizationAccessTokens.delete(ctx, token.id);
  }

  async members(principal: Principal, organizationId: string): Promise<MemberRow[]> {
    const ctx = this.context(principal);
    await this.organizationOf(ctx, organizationId);
    return membersOf(ctx.em, organizationId);
  }

  async inviteMember(
    principal: Principal,
    organizationId: string,
    input: { email: string; role: string; publicUrl: string },
  ): Promise<{ outcome: 'added' | 'invited' }> {
    const ctx = this.context(principal);
    await this.organizationOf(ctx, organizationId);
    return { outcome: await this.services.invitations.invite(ctx, organizationId, input) };
  }

  async invitations(principal: Principal, organizationId: string): Promise<InvitationRow[]> {
    const ctx = this.context(principal);
    await this.organizationOf(ctx, organizationId);
    const rows = await this.services.invitations.pending(ctx, organizationId);
    return rows.map(r => ({ email: r.email, role: r.role, createdAt: r.createdAt, expiresAt: r.expiresAt }));
  }

  async changeMemberRole(principal: Principal, organizationId: string, email: string, role: string): Promise<void> {
    const ctx = this.context(principal);
    await this.organizationOf(ctx, organizationId);
    await this.services.memberships.changeRole(ctx, organizationId, email, role);
  }

  async removeMember(principal: Principal, organizationId: string, email: string): Promise<void> {
    const ctx = this.context(principal);
    await this.organizationOf(ctx, organizationId);
    await this.services.memberships.remove(ctx, organizationId, email);
  }

  /** The organization as the user sees it, with their role; ResourceNotFound for non-members. */
  private async organizationOf(
    ctx: IdentityContext & { userId: string },
    id: string,
  ): Promise<OrganizationPage['organization']> {
    if (!isUuid(id)) throw new ResourceNotFound();
    const organization = await this.services.organizations.get(ctx, id);
    const role = (await new OrganizationRepository(ctx.em).roleOf(ctx.userId, id)) ?? MemberRole.MEMBER;
    return { id, name: organization.name, slug: organization.slug, role, canManage: MANAGING_ROLES.has(role) };
  }
}

function tokenRow(
  token: Pick<OrganizationAccessToken, 'id' | 'comment' | 'scopes' | 'createdAt' | 'expiresAt' | 'lastUsedAt'>,
): TokenRow {
  return {
    id: token.id,
    comment: token.comment,
    scopes: token.scopes,
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt?.toISOString() ?? null,
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
  };
}
