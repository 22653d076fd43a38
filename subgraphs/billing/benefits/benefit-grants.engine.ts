import type { EntityManager } from '@mikro-orm/postgresql';
import type { Customer } from '../customers/customer.entity.js';
import type { Benefit, BenefitKind } from './benefit.entity.js';
import { BenefitRepository } from './benefit.repository.js';
import { BenefitGrant } from './benefit-grant.entity.js';
import { BenefitGrantRepository, type Holder } from './benefit-grant.repository.js';
import { endSeatsOfSubscription } from '../customer-seats/customer-seat.ending.js';
import { isRetriable } from './benefit-integration.errors.js';
import { cycleGrant, type BenefitTypeHandler } from './benefit-type-handlers.js';
import { recordBenefitGrantUpdated, recordCustomerStateChanged, recordGrantChange } from './benefit-grant.events.js';
import { loadCustomerState } from './customer-state.read.js';

/** Where an organization's `benefit_revocation_grace_period` (days) comes from; identity owns it. */
export type GracePeriodSource = (organizationId: string) => Promise<number>;

/** The organization's clock (the sandbox clock in the sandbox): grants are stamped with its time. */
export type OrganizationNow = (organizationId: string) => Promise<Date>;

export interface ReconcileOutcome {
  /** Run again at this instant (a past-due subscription's grace period ends then), on the organization's clock. */
  recheckAt: Date | null;
  /** The organization's time the reconcile ran at. */
  at: Date | null;
  /**
   * Why an outside system must be asked again (a vendor that did not answer): the grant stores it as
   * its `error`, the reconcile commits, and the job then fails with it so the job queue retries.
   */
  retry: string | null;
}

const DAY_MS = 86_400_000;

/** Statuses a subscription does not come back from: a seat-based one's seats end with it. */
const ENDED = new Set<string>(['canceled', 'unpaid', 'incomplete_expired']);

/**
 * Brings the grants of one subscription or one-time order in line with its state (Polar's timing,
 * docs/polar/subscription-lifecycle.md): a subscription that is `active` or `trialing` (set to cancel at period end
 * included) holds every live benefit of its product; `past_due` keeps them until the organization's
 * grace period after `past_due_at` is over; any other status holds none. A paid one-time order holds its
 * product's benefits until a refund with `revoke_benefits`. Reconciling compares the wanted set with
 * the grants, so it is idempotent and the order in which jobs run does not matter: the last run sees
 * the last state. Runs in the caller's transaction, under a per-holder advisory lock.
 */
export class BenefitGrantEngine {
  constructor(
    private readonly handlers: Record<BenefitKind, BenefitTypeHandler>,
    private readonly gracePeriodDays: GracePeriodSource = async () => 0,
  ) {}

  async reconcileSubscription(
    em: EntityManager,
    subscriptionId: string,
    now: OrganizationNow,
    options: { cycled?: boolean } = {},
  ): Promise<ReconcileOutcome> {
    const grants = new BenefitGrantRepository(em);
    await grants.lockHolder(subscriptionId);
    const subscription = await grants.subscription(subscriptionId);
    if (!subscription) return { recheckAt: null, at: null, retry: null };
    const at = await now(subscription.organizationId);
    let wanted = false;
    let recheckAt: Date | null = null;
    if (subscription.status === 'active' || subscription.status === 'trialing') wanted = true;
    else if (subscription.status === 'past_due') {
      const days = await this.gracePeriodDays(subscription.organizationId);
      const since = subscription.pastDueAt ?? subscription.modifiedAt ?? at;
      const ends = new Date(since.getTime() + days * DAY_MS);
      if (ends.getTime() > at.getTime()) {
        wanted = true;
        recheckAt = ends;
      }
    }
    const seatBased = subscription.seats != null;
    // An ended seat-based subscription ends its seats (their holders then lose the benefits below).
    if (seatBased && ENDED.has(subscription.status)) await endSeatsOfSubscription(em, subscriptionId, at);
    const retry = await this.applyAll(
      em,
      { organizationId: subscription.organizationId, buyerId: subscription.customerId, seatBased },
      wanted ? subscription.productId : null,
      { subscriptionId, orderId: null },
      at,
      options.cycled === true,
    );
    return { recheckAt, at, retry };
  }

  /** Answers why the job must run again (see `ReconcileOutcome.retry`), or null. */
  async reconcileOrder(
    em: EntityManager,
    orderId: string,
    now: OrganizationNow,
    revoke: boolean,
  ): Promise<string | null> {
    const grants = new BenefitGrantRepository(em);
    await grants.lockHolder(orderId);
    const order = await grants.order(orderId);
    if (!order || order.subscriptionId) return null;
    const at = await now(order.organizationId);
    const paid = order.status === 'paid' || order.status === 'partially_refunded' || order.status === 'refunded';
    return this.applyAll(
      em,
      { organizationId: order.organizationId, buyerId: order.customerId, seatBased: order.seats != null },
      paid && !revoke ? order.productId : null,
      { subscriptionId: null, orderId },
      at,
      false,
    );
  }

  /**
   * Who holds the product's benefits through this subscription or order: its customer; for a seat-based
   * one, each holder of a claimed seat instead, as Polar grants them (docs/customer-seats.md#benefits).
   * Every other customer with grants of it (a revoked seat's holder) holds none.
   */
  private async applyAll(
    em: EntityManager,
    container: { organizationId: string; buyerId: string; seatBased: boolean },
    productId: string | null,
    holder: Holder,
    at: Date,
    cycled: boolean,
  ): Promise<string | null> {
    const grants = new BenefitGrantRepository(em);
    const targets = new Map<string, string | null>();
    for (const customerId of await grants.customersOfHolder(holder)) targets.set(customerId, null);
    const holders = container.seatBased ? await grants.claimedSeatHolders(holder) : [container.buyerId];
    for (const customerId of holders) targets.set(customerId, productId);
    let retry: string | null = null;
    for (const [customerId, wanted] of targets) {
      const target = { organizationId: container.organizationId, customerId, productId: wanted };
      const failed = await this.apply(em, target, holder, at, cycled);
      retry ??= failed;
    }
    return retry;
  }

  /** A deleted benefit: every grant of it is revoked now. */
  async revokeBenefit(em: EntityManager, benefit: Benefit, at: Date): Promise<void> {
    const repository = new BenefitGrantRepository(em);
    const grants = await repository.liveOfBenefit(benefit.id);
    const customers = new Set<string>();
    for (const grant of grants) {
      const customer = await repository.customer(grant.customerId);
      await this.revoke(em, grant, benefit, customer, at, false);
      customers.add(customer.id);
    }
    await em.flush();
    for (const id of customers) await this.stateChanged(em, benefit.organizationId, id, at);
  }

  /**
   * A benefit's properties changed: every live grant goes through its handler again (new properties)
   * and `benefit_grant.updated` carries them with `previous_properties`. Leaves the flush to the caller,
   * so the benefit's update and its grants' commit together.
   */
  async updateBenefit(em: EntityManager, benefit: Benefit, at: Date): Promise<void> {
    const repository = new BenefitGrantRepository(em);
    const grants = await repository.liveOfBenefit(benefit.id);
    for (const grant of grants) {
      const customer = await repository.customer(grant.customerId);
      const previous = grant.properties;
      try {
        grant.properties = await this.handlers[benefit.type].grant(em, {
          benefit,
          grant,
          customerEmail: customer.email,
          customer,
          at,
        });
        grant.error = null;
      } catch (error) {
        keepProperties(grant, error);
        grant.error = grantError(error, at);
      }
      grant.modifiedAt = at;
      recordBenefitGrantUpdated(em, grant, benefit, customer, previous, at);
    }
  }

  private async apply(
    em: EntityManager,
    target: { organizationId: string; customerId: string; productId: string | null },
    holder: Holder,
    at: Date,
    cycled: boolean,
  ): Promise<string | null> {
    const benefitRepository = new BenefitRepository(em);
    const grantRepository = new BenefitGrantRepository(em);
    const links = target.productId ? await benefitRepository.linksOfProduct(target.productId) : [];
    const grants = await grantRepository.ofHolder(holder, target.customerId);
    const benefitIds = [...new Set([...links.map(l => l.benefitId), ...grants.map(g => g.benefitId)])];
    const benefits = new Map(
      (benefitIds.length ? await benefitRepository.findMany(benefitIds) : []).map(b => [b.id, b]),
    );
    const wanted = new Set(links.map(l => l.benefitId).filter(id => benefits.get(id) && !benefits.get(id)!.deletedAt));
    const customer = await grantRepository.customer(target.customerId);
    let changed = false;
    let retry: string | null = null;
    for (const benefitId of wanted) {
      const benefit = benefits.get(benefitId)!;
      let grant = grants.find(g => g.benefitId === benefitId);
      if (grant?.revokedAt && holder.orderId) continue;
      if (grant?.grantedAt && !grant.revokedAt) {
        if (cycled) await cycleGrant(em, this.handlers[benefit.type], { benefit, grant, customer, at });
        if (cycled) await recordGrantChange(em, 'benefit_grant.cycled', grant, benefit, customer, at);
        continue;
      }
      if (!grant) {
        grant = em.create(BenefitGrant, {
          organizationId: target.organizationId,
          benefitId,
          customerId: target.customerId,
          subscriptionId: holder.subscriptionId,
          orderId: holder.orderId,
          grantedAt: null,
          revokedAt: null,
          properties: {},
          error: null,
          createdAt: at,
          modifiedAt: null,
        } as BenefitGrant);
        // Written before its handler runs: what the handler creates (a license key) may refer to it.
        await em.flush();
      }
      const outcome = await this.grant(em, grant, benefit, customer, at);
      changed = outcome.granted || changed;
      retry ??= outcome.retry;
    }
    for (const grant of grants) {
      if (wanted.has(grant.benefitId) || grant.revokedAt) continue;
      if (!grant.grantedAt) {
        // Never granted (waiting for the customer, or failed): nothing to take back outside; it is
        // closed, as Polar revokes it, so the portal no longer offers it.
        grant.revokedAt = at;
        grant.error = null;
        grant.modifiedAt = at;
        continue;
      }
      const failed = await this.revoke(em, grant, benefits.get(grant.benefitId)!, customer, at, true);
      if (failed) retry ??= failed;
      else changed = true;
    }
    await em.flush();
    if (changed) await this.stateChanged(em, target.organizationId, target.customerId, at);
    return retry;
  }

  /**
   * The customer changed a grant's properties (the account to grant to, through the portal): a grant
   * waiting for them is granted now, if its holder still holds the benefit; a live one goes through
   * its handler again (the integration moves it to the new account) and records `benefit_grant.updated`.
   */
  async refreshGrant(em: EntityManager, grantId: string, now: OrganizationNow): Promise<string | null> {
    const grants = new BenefitGrantRepository(em);
    const holder = await grants.holderOf(grantId);
    if (!holder) return null;
    if (!(await grants.findById(grantId))?.grantedAt) {
      if (holder.subscription_id) return (await this.reconcileSubscription(em, holder.id, now)).retry;
      return this.reconcileOrder(em, holder.id, now, false);
    }
    await grants.lockHolder(holder.id);
    const grant = await grants.findFresh(grantId);
    if (!grant.isGranted) return null;
    const benefit = await new BenefitRepository(em).findByIdOrFail(grant.benefitId);
    const customer = await grants.customer(grant.customerId);
    const at = await now(grant.organizationId);
    const previous = grant.properties;
    let retry: string | null = null;
    try {
      grant.properties = await this.handlers[benefit.type].grant(em, {
        benefit,
        grant,
        customerEmail: customer.email,
        customer,
        at,
      });
      grant.error = null;
    } catch (error) {
      keepProperties(grant, error);
      grant.error = grantError(error, at);
      if (isRetriable(error)) retry = grant.error.message;
    }
    grant.modifiedAt = at;
    recordBenefitGrantUpdated(em, grant, benefit, customer, previous, at);
    await em.flush();
    await this.stateChanged(em, grant.organizationId, grant.customerId, at);
    return retry;
  }

  /**
   * Grants through the type's handler; a failure is stored on the grant (Polar's `error`), not thrown,
   * and the grant waits ungranted. A vendor that did not answer is also reported as `retry`.
   */
  private async grant(
    em: EntityManager,
    grant: BenefitGrant,
    benefit: Benefit,
    customer: Customer,
    at: Date,
  ): Promise<{ granted: boolean; retry: string | null }> {
    try {
      const properties = await this.handlers[benefit.type].grant(em, {
        benefit,
        grant,
        customerEmail: customer.email,
        customer,
        at,
      });
      grant.properties = properties;
      grant.grantedAt = at;
      grant.revokedAt = null;
      grant.error = null;
      grant.modifiedAt = at;
      await recordGrantChange(em, 'benefit_grant.created', grant, benefit, customer, at);
      return { granted: true, retry: null };
    } catch (error) {
      keepProperties(grant, error);
      // Polar's `set_grant_failed`: neither granted nor revoked, the grant waits with its error.
      grant.grantedAt = null;
      grant.revokedAt = null;
      grant.error = grantError(error, at);
      grant.modifiedAt = at;
      return { granted: false, retry: isRetriable(error) ? grant.error.message : null };
    }
  }

  /**
   * Revokes through the type's handler. When the vendor did not answer and the caller can run again
   * (`retryable`: a reconcile job), the grant stays live with the error and the reason is answered:
   * the retry revokes it (Polar retries its revoke task the same way). Otherwise it is revoked here
   * whatever the outside system answered, with its `error`.
   */
  private async revoke(
    em: EntityManager,
    grant: BenefitGrant,
    benefit: Benefit,
    customer: Customer,
    at: Date,
    retryable: boolean,
  ): Promise<string | null> {
    try {
      const kept = await this.handlers[benefit.type].revoke(em, {
        benefit,
        grant,
        customerEmail: customer.email,
        customer,
        at,
      });
      if (kept) grant.properties = kept;
      grant.error = null;
    } catch (error) {
      grant.error = grantError(error, at);
      grant.modifiedAt = at;
      if (retryable && isRetriable(error)) return grant.error.message;
    }
    grant.revokedAt = at;
    grant.modifiedAt = at;
    await recordGrantChange(em, 'benefit_grant.revoked', grant, benefit, customer, at);
    return null;
  }

  /** `customer.state_changed` with the state as the change leaves it (read inside the transaction). */
  private async stateChanged(em: EntityManager, organizationId: string, customerId: string, at: Date): Promise<void> {
    const state = await loadCustomerState(em, { id: customerId }, [organizationId]);
    if (!state) return;
    recordCustomerStateChanged(em, organizationId, state, at);
    await em.flush();
  }
}

/** What an integration created before failing (a Slack channel) stays on the grant. */
function keepProperties(grant: BenefitGrant, error: unknown): void {
  const kept = (error as { grantProperties?: Record<string, unknown> | null } | null)?.grantProperties;
  if (kept) grant.properties = kept;
}

function grantError(error: unknown, at: Date) {
  return {
    message: error instanceof Error ? error.message : String(error),
    type: (error as { type?: string }).type ?? (error instanceof Error ? error.name : 'Error'),
    timestamp: at.toISOString(),
  };
}
