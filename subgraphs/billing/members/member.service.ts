import type { EntityManager } from '@mikro-orm/postgresql';
import { CORE_READERS, PORTAL_READERS, type TenantScope, tenantScope } from '../../../kit/database/tenant-scope.js';
import type { OutboxEvent } from '../../../kit/database/write/write-frame.js';
import { ResourceNotFound } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { OrganizationDirectory } from '../../identity/contract.js';
import type { Customer } from '../customers/customer.entity.js';
import { runWrite } from '../events/run-write.js';
import { CustomerType } from '../shared/enums.js';
import { sortCriteria } from '../shared/sorting.js';
import { organizationNow } from '../time/organization-clocks.js';
import { Member, MEMBER_ROLES, type MemberRole } from './member.entity.js';
import { individualHasOneMember, memberRuleBroken, membersNotEnabled, teamCustomersOnly } from './member.errors.js';
import { memberEvent } from './member.events.js';
import type { MemberCreateInput, MemberUpdateInput } from './member.inputs.js';
import { MEMBER_DEFAULT_SORTING, MEMBER_SORT_KEYS, memberRead } from './member.read.js';
import { MemberRepository, type Ref } from './member.repository.js';
import { MemberList, MemberType, type PortalAuthenticatedUserType } from './member.type.js';

export interface MemberListQuery extends PageRequest {
  role?: string | null;
  sorting?: string[] | null;
}

/**
 * What a member's deletion ends elsewhere, in the deletion's transaction: its seats (implemented by the
 * seats domain, customer-seats/customer-seat.ending.ts, and given here so members need not import it).
 */
export interface MemberLeaving {
  revokeSeats(em: EntityManager, memberId: string, at: Date, runAt: Date): Promise<void>;
}

/** Who changes a team: the merchant (Core API) or the customer's own portal session, which acts as its owner. */
type Actor = { kind: 'merchant' } | { kind: 'portal' };

/**
 * A customer's members (Polar's member service; docs/members.md): the merchant lists, reads, adds,
 * changes and removes them by the customer's id or external id; the customer's portal session manages
 * its team (team customers only). One owner per customer at all times: promoting a member to owner
 * demotes the owner to billing manager, and the only owner cannot be demoted or removed. Each change
 * locks the customer's row and records its `member.*` event in its own transaction.
 */
export class MemberService {
  constructor(
    private readonly organizations: OrganizationDirectory | null,
    private readonly leaving: MemberLeaving | null = null,
  ) {}

  async list(ctx: RequestContext, customer: Ref, query: MemberListQuery): Promise<MemberList> {
    const found = await this.customer(ctx, customer);
    const role = query.role ?? undefined;
    const { rows, total } = await memberRead.page(
      ctx.em,
      ctx.principal,
      { customerId: found.id, ...(role ? { role } : {}) },
      sortCriteria(query.sorting ?? [], MEMBER_SORT_KEYS, MEMBER_DEFAULT_SORTING),
      pageWindow(query),
    );
    return { items: rows.map(MemberType.fromRow), pagination: paginationOf(total, query.limit) };
  }

  async get(ctx: RequestContext, customer: Ref, member: Ref): Promise<MemberType> {
    const found = await this.customer(ctx, customer);
    const filters = 'id' in member ? {} : { externalId: member.externalId };
    const rows =
      'id' in member
        ? await memberRead.byIds(ctx.em, ctx.principal, [member.id])
        : (
            await memberRead.page(ctx.em, ctx.principal, { customerId: found.id, ...filters }, [], {
              limit: 1,
              offset: 0,
            })
          ).rows;
    const row = rows.find(r => (r.r as Member).customerId === found.id);
    if (!row) throw new ResourceNotFound('Member not found');
    return MemberType.fromRow(row);
  }

  /** Polar's create: an e-mail the customer's members already have answers that member, unchanged. */
  async create(ctx: RequestContext, customer: Ref, input: MemberCreateInput): Promise<MemberType> {
    const found = await this.customer(ctx, customer);
    await this.requireMembersEnabled(found.organizationId);
    return this.add(ctx, tenantScope(ctx.principal, CORE_READERS), found, input);
  }

  async update(ctx: RequestContext, customer: Ref, member: Ref, input: MemberUpdateInput): Promise<MemberType> {
    const found = await this.customer(ctx, customer);
    return this.change(ctx, tenantScope(ctx.principal, CORE_READERS), found.id, member, input, { kind: 'merchant' });
  }

  async delete(ctx: RequestContext, customer: Ref, member: Ref): Promise<void> {
    const found = await this.customer(ctx, customer);
    await this.remove(ctx, tenantScope(ctx.principal, CORE_READERS), found.id, member, { kind: 'merchant' });
  }

  /** The portal's team, for a team customer's own session. */
  async portalList(ctx: RequestContext, page: PageRequest): Promise<MemberList> {
    await this.portalTeam(ctx);
    const { rows, total } = await memberRead.page(
      ctx.em,
      ctx.principal,
      {},
      [{ key: 'created_at', direction: 'asc' }],
      pageWindow(page),
    );
    return { items: rows.map(MemberType.fromRow), pagination: paginationOf(total, page.limit) };
  }

  /** Polar's portal add: never a second owner (422 at `body.role`). */
  async portalAdd(ctx: RequestContext, input: MemberCreateInput): Promise<MemberType> {
    const customer = await this.portalTeam(ctx);
    if (input.role === 'owner')
      throw memberRuleBroken(
        ['body', 'role'],
        'Cannot add a member as owner. There must be exactly one owner.',
        'owner',
      );
    return this.add(ctx, tenantScope(ctx.principal, PORTAL_READERS), customer, { ...input, externalId: null });
  }

  async portalUpdate(ctx: RequestContext, id: string, input: MemberUpdateInput): Promise<MemberType> {
    const customer = await this.portalTeam(ctx);
    const scope = tenantScope(ctx.principal, PORTAL_READERS);
    return this.change(ctx, scope, customer.id, { id }, { name: input.name, role: input.role }, { kind: 'portal' });
  }

  async portalRemove(ctx: RequestContext, id: string): Promise<void> {
    const customer = await this.portalTeam(ctx);
    await this.remove(ctx, tenantScope(ctx.principal, PORTAL_READERS), customer.id, { id }, { kind: 'portal' });
  }

  /**
   * Polar's `customer-session/user`. Sessions here are customer sessions (docs/members.md#portal), so
   * the answer is the customer: `type` customer, no member id or role. A customer without an e-mail is
   * Polar's 422 (it asks for a member session).
   */
  async authenticatedUser(ctx: RequestContext): Promise<PortalAuthenticatedUserType> {
    const customer = await this.customer(ctx, { id: ctx.principal.subjectId ?? '' });
    if (!customer.email)
      throw memberRuleBroken(
        ['body'],
        'Team customers must use member sessions. Create a customer session via the API with a member_id.',
        null,
      );
    return {
      type: 'customer',
      name: customer.name,
      email: customer.email,
      customerId: customer.id,
      memberId: null,
      role: null,
    };
  }

  private async add(
    ctx: RequestContext,
    scope: TenantScope | null,
    customer: Customer,
    input: MemberCreateInput,
  ): Promise<MemberType> {
    // The Core API's create takes member or billing_manager (its schema), the portal's any but owner.
    const role = memberRole(input.role ?? 'member', ['body', 'role']);
    const email = input.email.trim();
    const now = await organizationNow(ctx, customer.organizationId);
    const member = await runWrite(ctx.em, async em => {
      const members = new MemberRepository(em);
      const locked = await members.lockCustomer(scope, customer.id);
      const existing = await members.findByEmail(locked.id, email);
      if (existing) return { result: existing };
      if (locked.type !== CustomerType.TEAM && (await members.live(locked.id)).length >= 1)
        throw individualHasOneMember();
      if (input.externalId != null && (await members.findMember(locked.id, { externalId: input.externalId })))
        throw memberRuleBroken(
          ['body', 'external_id'],
          'A member with this external ID already exists.',
          input.externalId,
        );
      const created = em.create(Member, {
        organizationId: locked.organizationId,
        customerId: locked.id,
        email,
        name: input.name ?? null,
        externalId: input.externalId ?? null,
        role,
        createdAt: now,
      } as Member);
      return { result: created, events: [memberEvent('member.created', created, now)] };
    });
    return MemberType.fromEntity(member);
  }

  private async change(
    ctx: RequestContext,
    scope: TenantScope | null,
    customerId: string,
    ref: Ref,
    input: MemberUpdateInput,
    actor: Actor,
  ): Promise<MemberType> {
    const role = input.role != null ? memberRole(input.role, ['body', 'role']) : null;
    const member = await runWrite(ctx.em, async em => {
      const members = new MemberRepository(em);
      const customer = await members.lockCustomer(scope, customerId);
      const member = await members.findMember(customer.id, ref);
      if (!member) throw new ResourceNotFound('Member not found');
      const now = await organizationNow({ ...ctx, em }, customer.organizationId);
      const events: OutboxEvent[] = [];
      let changed = false;
      if (role && role !== member.role) {
        // The portal session acts as the owner: it may hand ownership on, never change its own role.
        if (actor.kind === 'portal' && member.role === 'owner')
          throw memberRuleBroken(['path', 'id'], 'You cannot modify your own role.', member.id);
        if (member.role === 'owner')
          throw memberRuleBroken(['body', 'role'], 'Cannot change role. Customer must have exactly one owner.', role);
        if (role === 'owner') await this.demoteOwner(members, customer.id, member, now, events);
        member.role = role;
        changed = true;
      }
      if (input.email != null && input.email.trim() !== member.email) {
        await this.checkEmailChange(members, customer, member, input.email.trim());
        member.email = input.email.trim();
        changed = true;
      }
      if (input.name != null && input.name !== member.name) {
        member.name = input.name;
        changed = true;
      }
      if (!changed) return { result: member };
      member.modifiedAt = now;
      return { result: member, events: [...events, memberEvent('member.updated', member, now)] };
    });
    return MemberType.fromEntity(member);
  }

  /** Soft delete. The only owner stays (422, as Polar); the portal session (the owner) cannot remove itself. */
  private async remove(
    ctx: RequestContext,
    scope: TenantScope | null,
    customerId: string,
    ref: Ref,
    actor: Actor,
  ): Promise<void> {
    await runWrite(ctx.em, async em => {
      const members = new MemberRepository(em);
      const customer = await members.lockCustomer(scope, customerId);
      const member = await members.findMember(customer.id, ref);
      if (!member) throw new ResourceNotFound('Member not found');
      if (actor.kind === 'portal' && member.role === 'owner')
        throw memberRuleBroken(['path', 'id'], 'You cannot remove yourself from the team.', member.id);
      if (member.role === 'owner' && (await members.live(customer.id)).filter(m => m.role === 'owner').length <= 1)
        throw memberRuleBroken(['body'], 'Cannot delete the only owner. Transfer ownership first.', member.id);
      const now = await organizationNow({ ...ctx, em }, customer.organizationId);
      member.deletedAt = now;
      member.modifiedAt = now;
      await this.leaving?.revokeSeats(em, member.id, now, ctx.clock.now());
      return { result: undefined, events: [memberEvent('member.deleted', member, now)] };
    });
  }

  /** Ownership moves: the owner becomes billing manager (written first: one live owner per customer). */
  private async demoteOwner(
    members: MemberRepository,
    customerId: string,
    next: Member,
    now: Date,
    events: OutboxEvent[],
  ): Promise<void> {
    const owner = await members.findOwner(customerId);
    if (!owner || owner.id === next.id) return;
    owner.role = 'billing_manager';
    owner.modifiedAt = now;
    await members.flush();
    events.push(memberEvent('member.updated', owner, now));
  }

  private async checkEmailChange(
    members: MemberRepository,
    customer: Customer,
    member: Member,
    email: string,
  ): Promise<void> {
    if (customer.type === CustomerType.INDIVIDUAL)
      throw memberRuleBroken(
        ['body', 'email'],
        "Cannot change the email of an individual customer's owner. Update the customer's email instead.",
        email,
      );
    const other = await members.findByEmail(customer.id, email);
    if (other && other.id !== member.id)
      throw memberRuleBroken(['body', 'email'], 'A member with this email already exists for this customer.', email);
  }

  /** The customer the caller may read (404 `Customer not found` otherwise). */
  private async customer(ctx: RequestContext, ref: Ref): Promise<Customer> {
    const found = await new MemberRepository(ctx.em).findCustomer(ctx.principal, ref);
    if (!found) throw new ResourceNotFound('Customer not found');
    return found;
  }

  /** The portal session's own customer, which must be a team (403 otherwise). */
  private async portalTeam(ctx: RequestContext): Promise<Customer> {
    const customer = await this.customer(ctx, { id: ctx.principal.subjectId ?? '' });
    if (customer.type !== CustomerType.TEAM) throw teamCustomersOnly();
    return customer;
  }

  /** Polar adds members only where the member model or seat-based pricing is on (403 otherwise). */
  private async requireMembersEnabled(organizationId: string): Promise<void> {
    if (!this.organizations) return;
    const features = (await this.organizations.profile(organizationId))?.features;
    if (!features?.memberModelEnabled && !features?.seatBasedPricingEnabled) throw membersNotEnabled();
  }
}

function memberRole(value: string, loc: string[]): MemberRole {
  if ((MEMBER_ROLES as readonly string[]).includes(value)) return value as MemberRole;
  throw memberRuleBroken(loc, "Input should be 'owner', 'billing_manager' or 'member'", value);
}
