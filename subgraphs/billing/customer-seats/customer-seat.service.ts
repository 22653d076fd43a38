import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CORE_READERS, PORTAL_READERS, tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import type { OutboxEvent } from '../../../kit/database/write/write-frame.js';
import { BadRequest, ResourceNotFound } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { type PageRequest, type Pagination, pageWindow, paginationOf } from '../../../kit/graphql/pagination.js';
import { subscriptionRead } from '../subscriptions/subscription.read.js';
import { BillingSubscriptionType } from '../subscriptions/subscription.type.js';
import { hashToken } from '../../../kit/tokens.js';
import type { OrganizationDirectory, OrganizationProfile } from '../../identity/contract.js';
import { Customer } from '../customers/customer.entity.js';
import { customerEvent } from '../customers/customer.events.js';
import { CustomerRepository } from '../customers/customer.repository.js';
import type { CustomerSessionService } from '../customer-sessions/customer-session.service.js';
import { sendSoon } from '../emails/email-outbox.js';
import { runWrite } from '../events/run-write.js';
import type { Member } from '../members/member.entity.js';
import { MemberRepository } from '../members/member.repository.js';
import { addOwnerMember } from '../members/owner-member.js';
import type { JobRunner } from '../jobs/job-queue.js';
import { organizationNow } from '../time/organization-clocks.js';
import { CustomerSeat } from './customer-seat.entity.js';
import { revokedSeatFields } from './customer-seat.ending.js';
import { enqueueSeatBenefits, type SeatEventType, seatEvent } from './customer-seat.events.js';
import {
  CustomerNotFound,
  FeatureNotEnabled,
  InvalidInvitationToken,
  InvalidSeatAssignmentRequest,
  MemberNotFound,
  SeatAlreadyAssigned,
  SeatNotAvailable,
  SeatNotPending,
} from './customer-seat.errors.js';
import type { CustomerSeatAssignInput } from './customer-seat.inputs.js';
import { inviteToSeat, SEAT_INVITATION_TTL_MS } from './customer-seat.invitation.js';
import { customerSeatRead } from './customer-seat.read.js';
import { type SeatContainer, type SeatContainerRef, CustomerSeatRepository } from './customer-seat.repository.js';
import { CustomerSeatClaimType, CustomerSeatType, SeatClaimInfoType, SeatsListType } from './customer-seat.type.js';

/** Merchants (Core API) and the billing customer (its portal) manage the same seats. */
const SEAT_READERS = [...CORE_READERS, ...PORTAL_READERS];
/** Every seat of a container on one page: a container has at most 10,000 seats (and their revoked rows). */
const ALL_SEATS = { limit: 100_000, offset: 0 };

/**
 * Seats of seat-based subscriptions and orders (Polar's customer_seat service; docs/customer-seats.md):
 * the buyer (merchant API or its portal) assigns seats by e-mail, external id or customer id, up to the
 * container's `seats`; the holder claims the seat with the e-mailed token and gets a portal session;
 * a seat is revoked and its row reused by the next assignment. Each change records its
 * `customer_seat.*` event in its own transaction.
 */
export class CustomerSeatService {
  constructor(
    private readonly deps: {
      secret: string;
      publicUrl: string;
      sessions: CustomerSessionService;
      organizations: OrganizationDirectory | null;
      jobs: JobRunner | null;
    },
  ) {}

  async list(
    ctx: RequestContext,
    ids: { subscriptionId?: string | null; orderId?: string | null },
  ): Promise<SeatsListType> {
    const ref = containerRef(ids);
    if (!ref) throw new BadRequest('Either subscription_id or order_id must be provided');
    const container = await new CustomerSeatRepository(ctx.em).findContainer(
      tenantScope(ctx.principal, SEAT_READERS),
      ref,
    );
    if (!container) throw notFound(ref);
    await this.profileWithSeats(container.row.organizationId);
    const filters =
      container.kind === 'subscription' ? { subscriptionId: container.row.id } : { orderId: container.row.id };
    const { rows } = await customerSeatRead.page(
      ctx.em,
      ctx.principal,
      filters,
      [{ key: 'created_at', direction: 'asc' }],
      ALL_SEATS,
    );
    const seats = rows.map(CustomerSeatType.fromRow);
    const occupied = seats.filter(s => s.status !== 'revoked').length;
    const totalSeats = container.row.seats ?? 0;
    return { seats, availableSeats: Math.max(0, totalSeats - occupied), totalSeats };
  }

  async assign(ctx: RequestContext, input: CustomerSeatAssignInput): Promise<CustomerSeatType> {
    const ref = containerRef(input);
    if (!ref) throw new BadRequest('Either subscription_id or order_id must be provided');
    const scope = tenantScope(ctx.principal, SEAT_READERS);
    // The organization's switches live in identity: asked before the transaction takes its locks.
    const peek = await new CustomerSeatRepository(ctx.em.fork()).findContainer(scope, ref);
    if (!peek) throw notFound(ref);
    const profile = await this.profileWithSeats(peek.row.organizationId);
    const now = await organizationNow(ctx, peek.row.organizationId);
    const immediate = input.immediateClaim === true;
    const token = immediate ? null : randomBytes(32).toString('base64url');
    let emailKey: string | null = null;
    const seat = await runWrite(ctx.em, async em => {
      const seats = new CustomerSeatRepository(em);
      // Locked as the seat count's update locks it: an assignment cannot slip past a lowered count.
      const container = await seats.findContainer(scope, ref, { lock: true });
      if (!container) throw notFound(ref);
      const sourceId = container.row.id;
      if (container.kind === 'order' && container.row.status === 'pending')
        throw new SeatNotAvailable(sourceId, 'Order must be paid before assigning seats');
      if ((container.row.seats ?? 0) - (await seats.countOccupied(container)) <= 0)
        throw new SeatNotAvailable(sourceId);
      const events: OutboxEvent[] = [];
      const member = input.memberId != null ? await seatMember(em, container, input.memberId) : null;
      const holder = await this.seatHolder(em, container, member ? { email: member.email } : input, now, events);
      if (await seats.findHeldBy(container, holder.id))
        throw new SeatAlreadyAssigned(
          member?.email ?? input.email ?? input.externalCustomerId ?? input.customerId ?? holder.id,
        );
      const seat = (await seats.findRevoked(container)) ?? em.create(CustomerSeat, newSeat(container, now));
      Object.assign(seat, {
        status: immediate ? 'claimed' : 'pending',
        customerId: holder.id,
        memberId: member?.id ?? null,
        email: member?.email ?? null,
        invitationTokenHash: token ? hashToken(token, this.deps.secret) : null,
        invitationTokenExpiresAt: token ? new Date(now.getTime() + SEAT_INVITATION_TTL_MS) : null,
        claimedAt: immediate ? now : null,
        revokedAt: null,
        seatMetadata: input.metadata ?? {},
        modifiedAt: seat.createdAt === now ? null : now,
      });
      if (token && holder.email) {
        emailKey = await inviteToSeat(em, this.deps.publicUrl, seats, container, profile, now, {
          organizationId: container.row.organizationId,
          buyerId: container.row.customerId,
          to: holder.email,
          token,
          expiresAt: seat.invitationTokenExpiresAt as Date,
        });
      }
      const type: SeatEventType = immediate ? 'customer_seat.claimed' : 'customer_seat.assigned';
      if (immediate) {
        await em.flush();
        await enqueueSeatBenefits(em, seat, ctx.clock.now());
      }
      return { result: seat, events: async tx => [...events, await seatEvent(tx, type, seat, now)] };
    });
    if (emailKey) sendSoon(this.deps.jobs, emailKey);
    return this.readIn(ctx.em, seat);
  }

  async revoke(ctx: RequestContext, id: string): Promise<CustomerSeatType> {
    const found = await this.readable(ctx, id);
    await this.profileWithSeats(found.organizationId);
    const now = await organizationNow(ctx, found.organizationId);
    const seat = await runWrite(ctx.em, async em => {
      const seat = await this.loadSeat(ctx, em, id);
      // Revoking twice changes nothing and tells nobody again.
      if (seat.status === 'revoked') return { result: seat };
      Object.assign(seat, revokedSeatFields(now));
      await enqueueSeatBenefits(em, seat, ctx.clock.now());
      return { result: seat, events: async tx => [await seatEvent(tx, 'customer_seat.revoked', seat, now)] };
    });
    return this.readIn(ctx.em, seat);
  }

  /**
   * Sends a pending seat's invitation again. Only the token's HMAC is kept, so the new e-mail carries a
   * new token (the old link stops working) with a new day to claim it.
   */
  async resendInvitation(ctx: RequestContext, id: string): Promise<CustomerSeatType> {
    const found = await this.readable(ctx, id);
    const profile = await this.profileWithSeats(found.organizationId);
    const now = await organizationNow(ctx, found.organizationId);
    const token = randomBytes(32).toString('base64url');
    let emailKey: string | null = null;
    const seat = await runWrite(ctx.em, async em => {
      const seat = await this.loadSeat(ctx, em, id);
      if (seat.status !== 'pending') throw new SeatNotPending();
      if (!seat.invitationTokenHash) throw new InvalidInvitationToken();
      const seats = new CustomerSeatRepository(em);
      const holder = await seats.findCustomer(seat.customerId);
      const to = seat.email ?? holder?.email;
      if (!to) throw new InvalidInvitationToken();
      seat.invitationTokenHash = hashToken(token, this.deps.secret);
      seat.invitationTokenExpiresAt = new Date(now.getTime() + SEAT_INVITATION_TTL_MS);
      seat.modifiedAt = now;
      emailKey = await inviteToSeat(em, this.deps.publicUrl, seats, await seats.containerOf(seat), profile, now, {
        organizationId: seat.organizationId,
        buyerId: seat.billingCustomerId,
        to,
        token,
        expiresAt: seat.invitationTokenExpiresAt,
      });
      return { result: seat };
    });
    if (emailKey) sendSoon(this.deps.jobs, emailKey);
    return this.readIn(ctx.em, seat);
  }

  /** What an invitation shows (no side effect: link scanners may fetch it). 404 when it cannot be claimed. */
  async claimInfo(ctx: RequestContext, token: string): Promise<SeatClaimInfoType> {
    const repository = new CustomerSeatRepository(ctx.em);
    const seat = await repository.findByTokenHash(hashToken(token, this.deps.secret));
    if (!seat || !(await claimable(ctx, seat))) throw new ResourceNotFound('Invalid or expired invitation token');
    const profile = await this.profileWithSeats(seat.organizationId);
    const product = await repository.findProduct(await repository.containerOf(seat));
    if (!product) throw new ResourceNotFound('Seat has no subscription or order');
    const holder = await repository.findCustomer(seat.customerId);
    return {
      productName: product.name,
      productId: product.id,
      organizationName: profile?.name ?? '',
      organizationSlug: profile?.slug ?? '',
      customerEmail: seat.email ?? holder?.email ?? '',
      canClaim: seat.status === 'pending',
    };
  }

  /** Spends the token: the seat is claimed and its holder gets a portal session (`polar_cst_`). */
  async claim(ctx: RequestContext, token: string): Promise<CustomerSeatClaimType> {
    const tokenHash = hashToken(token, this.deps.secret);
    const peek = await new CustomerSeatRepository(ctx.em.fork()).findByTokenHash(tokenHash);
    if (!peek) throw new InvalidInvitationToken();
    await this.profileWithSeats(peek.organizationId);
    const now = await organizationNow(ctx, peek.organizationId);
    const { seat, sessionToken } = await runWrite(ctx.em, async em => {
      // Locked: of two claims of one token, the second finds it spent.
      const seats = new CustomerSeatRepository(em);
      const seat = await seats.findByTokenHash(tokenHash, { lock: true });
      if (!seat || !(await claimable(ctx, seat, now))) throw new InvalidInvitationToken();
      const holder = await seats.findCustomer(seat.customerId, { live: true });
      if (!holder) throw new InvalidInvitationToken();
      Object.assign(seat, { status: 'claimed', claimedAt: now, invitationTokenHash: null, modifiedAt: now });
      const session = await this.deps.sessions.createFor(em, holder, now);
      await enqueueSeatBenefits(em, seat, ctx.clock.now());
      return {
        result: { seat, sessionToken: session.token },
        events: async tx => [await seatEvent(tx, 'customer_seat.claimed', seat, now)],
      };
    });
    return { seat: await this.readIn(ctx.em, seat), customerSessionToken: sessionToken };
  }

  /**
   * The subscriptions in which the signed-in customer holds a claimed seat (Polar's portal
   * `seats/subscriptions`): found through the seats, then read within their organizations, since the
   * holder is not their customer.
   */
  async claimedSubscriptions(
    ctx: RequestContext,
    page: PageRequest,
  ): Promise<{ items: BillingSubscriptionType[]; pagination: Pagination }> {
    const scope = tenantScope(ctx.principal, PORTAL_READERS);
    const window = pageWindow(page);
    const { ids, total } = scope
      ? await new CustomerSeatRepository(ctx.em).claimedSubscriptionIds(scope, window)
      : { ids: [], total: 0 };
    const rows = ids.length
      ? await subscriptionRead.byIdsIn(ctx.em, { organizationIds: scope?.organizationIds ?? [], customerId: null }, ids)
      : [];
    const byId = new Map(rows.map(row => [(row.r as { id: string }).id, row]));
    const items = ids.flatMap(id => (byId.has(id) ? [BillingSubscriptionType.fromRow(byId.get(id)!)] : []));
    return { items, pagination: paginationOf(total, window.limit) };
  }

  /**
   * The organization's profile, refusing when its `seat_based_pricing_enabled` is off (403). Billing
   * started without identity's directory (unit tests) has every feature on.
   */
  private async profileWithSeats(organizationId: string): Promise<OrganizationProfile | null> {
    if (!this.deps.organizations) return null;
    const profile = await this.deps.organizations.profile(organizationId);
    if (!profile?.features.seatBasedPricingEnabled) throw new FeatureNotEnabled();
    return profile;
  }

  /**
   * Who gets the seat: exactly one of e-mail (the organization's customer with it, created when there is
   * none, with its `customer.created`), external id or customer id (404 when not the organization's). A
   * seat given to a member goes to the customer with the member's e-mail (docs/customer-seats.md#members).
   */
  private async seatHolder(
    em: EntityManager,
    container: SeatContainer,
    input: Pick<CustomerSeatAssignInput, 'email' | 'externalCustomerId' | 'customerId' | 'externalMemberId'>,
    now: Date,
    events: OutboxEvent[],
  ): Promise<Customer> {
    if (input.externalMemberId != null)
      throw new InvalidSeatAssignmentRequest(
        'external_member_id is not supported: assign by member_id, email, external_customer_id or customer_id.',
      );
    const given = [input.email, input.externalCustomerId, input.customerId].filter(v => v != null);
    if (given.length !== 1) throw new InvalidSeatAssignmentRequest();
    const organizationId = container.row.organizationId;
    const customers = new CustomerRepository(em);
    if (input.customerId != null) {
      const found = await new CustomerSeatRepository(em).findCustomer(input.customerId, { organizationId, live: true });
      if (!found) throw new CustomerNotFound(input.customerId);
      return found;
    }
    if (input.externalCustomerId != null) {
      const found = await customers.findByExternalId(organizationId, input.externalCustomerId);
      if (!found || found.deletedAt) throw new CustomerNotFound(input.externalCustomerId);
      return found;
    }
    const email = input.email as string;
    const existing = await customers.findByEmail(organizationId, email);
    if (existing) return existing;
    const created = em.create(Customer, { organizationId, email, metadata: {}, createdAt: now } as Customer);
    events.push(customerEvent('customer.created', created, now));
    addOwnerMember(em, created, now);
    return created;
  }

  /** The seat as the caller may read it (404 otherwise), before any lock. */
  private async readable(ctx: RequestContext, id: string): Promise<CustomerSeat> {
    const row = await customerSeatRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound('Seat not found');
    return row.r as CustomerSeat;
  }

  private loadSeat(ctx: RequestContext, em: EntityManager, id: string): Promise<CustomerSeat> {
    return loadForWrite(em, CustomerSeat, id, tenantScope(ctx.principal, SEAT_READERS), {
      tenant: { customer: 'billingCustomerId' },
    });
  }

  private async readIn(em: EntityManager, seat: CustomerSeat): Promise<CustomerSeatType> {
    const [row] = await customerSeatRead.byIdsIn(em, { organizationIds: [seat.organizationId], customerId: null }, [
      seat.id,
    ]);
    if (!row) throw new ResourceNotFound('Seat not found');
    return CustomerSeatType.fromRow(row);
  }
}

function containerRef(input: { subscriptionId?: string | null; orderId?: string | null }): SeatContainerRef | null {
  if (input.subscriptionId) return { subscriptionId: input.subscriptionId };
  if (input.orderId) return { orderId: input.orderId };
  return null;
}

function notFound(ref: SeatContainerRef): ResourceNotFound {
  return new ResourceNotFound('subscriptionId' in ref ? 'Subscription not found' : 'Order not found');
}

/** The billing customer's live member named by `member_id` (Polar's rule), else 404 `MemberNotFound`. */
async function seatMember(em: EntityManager, container: SeatContainer, memberId: string): Promise<Member> {
  const member = await new MemberRepository(em).findMember(container.row.customerId, { id: memberId });
  if (!member) throw new MemberNotFound(memberId);
  return member;
}

function newSeat(container: SeatContainer, now: Date): CustomerSeat {
  return {
    organizationId: container.row.organizationId,
    subscriptionId: container.kind === 'subscription' ? container.row.id : null,
    orderId: container.kind === 'order' ? container.row.id : null,
    billingCustomerId: container.row.customerId,
    status: 'pending',
    createdAt: now,
  } as CustomerSeat;
}

/** Pending, and its invitation not expired (by the organization's clock). */
async function claimable(ctx: RequestContext, seat: CustomerSeat, at?: Date): Promise<boolean> {
  if (seat.status !== 'pending') return false;
  const now = at ?? (await organizationNow(ctx, seat.organizationId));
  return !seat.invitationTokenExpiresAt || seat.invitationTokenExpiresAt.getTime() >= now.getTime();
}
