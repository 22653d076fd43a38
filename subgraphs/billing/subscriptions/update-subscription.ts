import type { EntityManager } from '@mikro-orm/postgresql';
import { PolarRequestValidationError, ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { ProductRepository } from '../products/product.repository.js';
import { PriceAmountType, SubscriptionStatus } from '../shared/enums.js';
import type { BilledTerms, PaidChange, ProrationBehavior } from './subscription.charger.js';
import { directionOf } from './plan-change-quote.js';
import { behaviorFor } from './proration-settings.js';
import { notePlanChange } from '../customer-emails/plan-change-notes.js';
import type { Subscription } from './subscription.entity.js';
import { NotASeatBasedSubscription } from './subscription.errors.js';
import type { SubscriptionUpdateInput } from './subscription.inputs.js';
import { SubscriptionRepository } from './subscription.repository.js';
import * as transitions from './transitions/requested.js';
import { assertNotCanceled, combine, type TransitionResult } from './transitions/state.js';

import { Stamp } from './lifecycle/renewal-billing.js';
import { resumeSubscription } from './lifecycle/resume.js';
import { assertResumable, cancelScheduledPause, pauseAtPeriodEnd } from './pause-subscription.js';
import { mutateSubscription, type SubscriptionMutationDependencies } from './subscription-mutation.js';
import {
  type Alternative,
  behaviorOf,
  checkInput,
  classifyUpdate,
  isEmptyBase,
  requireFuture,
  reasonOf,
} from './update-subscription-input.js';
import { billedTerms, redeemDiscount, seatTotal, termsOf } from './update-subscription-terms.js';

/** The core API's `PATCH /v1/subscriptions/{id}` (`subscriptions:update`), every alternative. */
export class UpdateSubscription {
  constructor(private readonly deps: SubscriptionMutationDependencies) {}

  async execute(ctx: RequestContext, id: string, input: SubscriptionUpdateInput): Promise<Subscription> {
    const alternative = classifyUpdate(input);
    checkInput(input);
    const find = (em: EntityManager) => new SubscriptionRepository(em).findReadable(ctx.principal, id);
    if (alternative === 'base' && isEmptyBase(input)) {
      // `{}` matches SubscriptionUpdateBase and changes nothing: 200 with the subscription as it is.
      const subscription = await find(ctx.em);
      if (!subscription) throw new ResourceNotFound();
      return subscription;
    }
    return mutateSubscription(ctx, this.deps, find, (em, subscription, now) =>
      this.apply(em, alternative, subscription, input, now),
    );
  }

  /**
   * The customer portal's plan or seat change: the rules of the PATCH, and always the organization's
   * proration choice for the change's direction (a customer never names a behaviour).
   */
  changePlan(
    ctx: RequestContext,
    find: (em: EntityManager) => Promise<Subscription | null>,
    change: { productId?: string | null; seats?: number | null },
  ): Promise<Subscription> {
    checkInput({ seats: change.seats });
    return mutateSubscription(ctx, this.deps, find, async (em, s, now) => {
      assertNotCanceled(s);
      if (change.productId != null) return this.changeProduct(em, s, change.productId, null, now);
      return this.changeSeats(em, s, change.seats!, null, now);
    });
  }

  private async apply(
    em: EntityManager,
    alternative: Alternative,
    s: Subscription,
    input: SubscriptionUpdateInput,
    now: Date,
  ): Promise<TransitionResult> {
    switch (alternative) {
      case 'cancel':
        return input.cancelAtPeriodEnd
          ? transitions.cancelAtPeriodEnd(
              s,
              {
                reason: reasonOf(input.customerCancellationReason),
                comment: input.customerCancellationComment ?? null,
              },
              now,
            )
          : transitions.uncancel(s, now);
      case 'revoke':
        return transitions.revoke(
          s,
          {
            reason:
              input.customerCancellationReason === undefined ? undefined : reasonOf(input.customerCancellationReason),
            comment:
              input.customerCancellationComment === undefined ? undefined : (input.customerCancellationComment ?? null),
          },
          now,
        );
      case 'clear':
        return transitions.clearPendingUpdate(s, now);
      case 'pause':
      case 'resume':
        return this.pauseOrResume(em, s, input, now);
      case 'billing_period':
        assertNotCanceled(s);
        requireFuture(input.currentBillingPeriodEnd!, 'current_billing_period_end', now);
        return transitions.setBillingPeriodEnd(s, input.currentBillingPeriodEnd!, now);
      case 'seats':
        return this.changeSeats(em, s, input.seats!, behaviorOf(input.prorationBehavior), now);
      case 'base':
        return this.applyBase(em, s, input, now);
    }
  }

  /**
   * `SubscriptionPause` (`pause_at_period_end` true schedules, false drops the scheduled pause) or
   * `SubscriptionResume` (`resume`: active now, a new period billed), for the PATCH and the portal's.
   */
  async pauseOrResume(
    em: EntityManager,
    s: Subscription,
    input: Pick<SubscriptionUpdateInput, 'pauseAtPeriodEnd' | 'resumesAt' | 'resume'>,
    now: Date,
  ): Promise<TransitionResult> {
    if (input.resume) {
      assertResumable(s);
      // The events of the resume are mutateSubscription's, at `now`; the order's follow them.
      const tax = this.deps.tax ? { sale: this.deps.tax } : null;
      await resumeSubscription(em, s, new Stamp(now), async () => {}, tax);
      return { changed: true, events: ['subscription.resumed'] };
    }
    if (!input.pauseAtPeriodEnd) return cancelScheduledPause(s, now);
    if (input.resumesAt != null) requireFuture(input.resumesAt, 'resumes_at', now);
    return pauseAtPeriodEnd(s, input.resumesAt ?? null, now);
  }

  /**
   * SubscriptionUpdateBase: metadata, discount, trial and product in one body. Rule 1 is checked
   * first, so a canceled subscription answers 403 whatever else the body holds; a failed payment
   * rolls back every part.
   */
  private async applyBase(
    em: EntityManager,
    s: Subscription,
    input: SubscriptionUpdateInput,
    now: Date,
  ): Promise<TransitionResult> {
    assertNotCanceled(s);
    const results: TransitionResult[] = [];
    if (input.metadata != null) results.push(transitions.updateMetadata(s, input.metadata, now));
    if (input.productId != null)
      results.push(await this.changeProduct(em, s, input.productId, behaviorOf(input.prorationBehavior), now));
    if (input.removeDiscount) results.push(transitions.removeDiscount(s, now));
    else if (input.discountId != null && input.discountId !== s.discountId) {
      await redeemDiscount(em, s, input.discountId, now);
      results.push(transitions.applyDiscount(s, input.discountId, now));
    }
    if (input.endTrialNow) results.push(await this.endTrial(em, s, now));
    else if (input.trialEnd != null) {
      requireFuture(input.trialEnd, 'trial_end', now);
      if (s.status === SubscriptionStatus.ACTIVE && input.trialEnd.getTime() <= s.currentPeriodEnd.getTime()) {
        throw new PolarRequestValidationError([
          {
            type: 'value_error',
            loc: ['body', 'trial_end'],
            msg: 'Trial end must be after the current period end.',
            input: input.trialEnd.toISOString(),
          },
        ]);
      }
      results.push(transitions.setTrialEnd(s, input.trialEnd, now));
    }
    return combine(results);
  }

  /**
   * Product change. The behaviour is the request's, else the organization's for the change's
   * direction (proration-settings.ts). `next_period` stores a pending update applied at the renewal.
   * `invoice`, `prorate` and `reset` apply now: between free products nothing is billed; a change
   * that moves money goes through the charger (plan-change-charger.ts) and nothing changes if it
   * fails. A trialing subscription is not billed for the change (docs/polar/subscription-lifecycle.md).
   */
  private async changeProduct(
    em: EntityManager,
    s: Subscription,
    productId: string,
    requested: ProrationBehavior | null,
    now: Date,
  ): Promise<TransitionResult> {
    const repository = new ProductRepository(em);
    const [product] = await repository.findInOrganization(s.organizationId, [productId]);
    const issue = (msg: string): ValidationIssue => ({
      type: 'value_error',
      loc: ['body', 'product_id'],
      msg,
      input: productId,
    });
    if (!product) throw new PolarRequestValidationError([issue('Product does not exist.')]);
    if (product.isArchived) throw new PolarRequestValidationError([issue('Product is archived.')]);
    if (!product.isRecurring) throw new PolarRequestValidationError([issue('Product is not recurring.')]);
    if (product.id === s.productId) return { changed: false, events: [] };
    const prices = (await repository.pricesOf([product.id])).get(product.id) ?? [];
    if (!prices.length) throw new PolarRequestValidationError([issue('Product has no price.')]);
    const terms = termsOf(product, prices, s.seats);
    const from = billedTerms(s);
    const behavior = await this.behavior(s, requested, from, terms);
    const change = { em, subscription: s, behavior, now, kind: 'product_change' as const, from, to: terms };
    if (behavior === 'next_period') {
      const result = transitions.schedulePendingUpdate(s, { productId: product.id, seats: s.seats }, now);
      await this.charge(change);
      return result;
    }
    const result = transitions.changeProduct(s, terms, now);
    if (result.changed) await this.charge(change);
    // An invoiced change is told by its order; any other is told as a plan change (docs/email.md).
    if (result.changed && behavior !== 'invoice') notePlanChange(em, s.id);
    return result;
  }

  private async changeSeats(
    em: EntityManager,
    s: Subscription,
    seats: number,
    requested: ProrationBehavior | null,
    now: Date,
  ): Promise<TransitionResult> {
    assertNotCanceled(s);
    const prices = await new ProductRepository(em).findPricesByIds(s.priceIds);
    const seatPrice = prices.find(p => p.amountType === PriceAmountType.SEAT_BASED);
    if (!seatPrice?.seatTiers) throw new NotASeatBasedSubscription(s.id);
    const from = billedTerms(s);
    const amount = seatTotal(seatPrice.seatTiers, seats);
    const to = { ...from, amount, seats };
    const behavior = await this.behavior(s, requested, from, to);
    const change = { em, subscription: s, behavior, now, kind: 'seats_change' as const, from, to };
    if (behavior === 'next_period') {
      const result = transitions.schedulePendingUpdate(s, { productId: null, seats }, now);
      await this.charge(change);
      return result;
    }
    const result = transitions.changeSeats(s, seats, amount, now);
    if (result.changed) await this.charge(change);
    return result;
  }

  /** The request's behaviour, else the organization's for this change's direction. */
  private async behavior(
    s: Subscription,
    requested: ProrationBehavior | null,
    from: BilledTerms,
    to: BilledTerms,
  ): Promise<ProrationBehavior> {
    if (requested) return requested;
    const settings = await this.deps.prorationSettings(s.organizationId);
    return behaviorFor(null, settings, directionOf(s, from, to));
  }

  /** `trial_end: "now"`: the trial ends and the first paid period starts, which a paid product charges. */
  private async endTrial(em: EntityManager, s: Subscription, now: Date): Promise<TransitionResult> {
    const result = transitions.setTrialEnd(s, 'now', now);
    const terms = billedTerms(s);
    await this.charge({
      em,
      subscription: s,
      behavior: 'invoice',
      now,
      kind: 'trial_end',
      from: { ...terms, amount: 0n },
      to: terms,
    });
    return result;
  }

  /**
   * A change that moves money (either side costs something) goes through the charger seam before
   * anything commits; a trialing subscription is not billed for a change (docs/polar/subscription-lifecycle.md).
   */
  private async charge(change: PaidChange): Promise<void> {
    if (change.from.amount === 0n && change.to.amount === 0n) return;
    if (change.subscription.status === SubscriptionStatus.TRIALING) return;
    await this.deps.charger.chargeNow(change);
  }
}
