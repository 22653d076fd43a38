import type { EntityManager } from '@mikro-orm/postgresql';
import { PolarRequestValidationError, ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { metadataIssues } from '../shared/metadata.js';
import { Discount } from '../discounts/discount.entity.js';
import type { ProductPrice, SeatTiers } from '../products/product-price.entity.js';
import type { Product } from '../products/product.entity.js';
import { ProductRepository } from '../products/product.repository.js';
import { CustomerCancellationReason, PriceAmountType, SubscriptionStatus } from '../shared/enums.js';
import type { PaidChange, ProrationBehavior, SubscriptionCharger } from './subscription.charger.js';
import type { Subscription } from './subscription.entity.js';
import { AboveMaximumSeats, BelowMinimumSeats, NotASeatBasedSubscription } from './subscription.errors.js';
import type { SubscriptionUpdateInput } from './subscription.inputs.js';
import { lockSubscription } from './subscription.lock.js';
import { SubscriptionRepository } from './subscription.repository.js';
import type { SubscriptionChangeRecorder } from './subscription.events.js';
import * as transitions from './subscription.transitions.js';
import type { ProductTerms, TransitionResult } from './subscription.transitions.js';
import { organizationNow } from '../recurring/organization-clocks.js';

export interface SubscriptionMutationDependencies {
  charger: SubscriptionCharger;
  recordEvents: SubscriptionChangeRecorder;
}

/**
 * The frame every write of a subscription runs in: one transaction that (1) finds the subscription
 * the caller may change (404 otherwise — before the lock, so a foreign id never answers 409), (2) takes
 * the subscription's advisory lock with `try` (409 SubscriptionLocked at once if another write holds
 * it), (3) re-reads the row under the lock so the change applies to the latest committed state (no lost
 * update), (4) applies the transitions, and (5) writes `subscription.updated` plus the transition's own
 * events to the outbox in the same transaction. Any error rolls everything back.
 */
export async function mutateSubscription(
  ctx: RequestContext,
  deps: SubscriptionMutationDependencies,
  find: (em: EntityManager) => Promise<Subscription | null>,
  apply: (em: EntityManager, subscription: Subscription, now: Date) => Promise<TransitionResult>,
): Promise<Subscription> {
  return ctx.em.transactional(async em => {
    const found = await find(em);
    if (!found) throw new ResourceNotFound();
    await lockSubscription(em, found.id);
    const subscription = (await em.refresh(found)) ?? found;
    const now = await organizationNow(ctx, subscription.organizationId);
    const result = await apply(em, subscription, now);
    if (result.changed) {
      await em.flush();
      await deps.recordEvents(em, subscription, ['subscription.updated', ...result.events], now);
      await em.flush();
    }
    return subscription;
  });
}

type Alternative = 'base' | 'seats' | 'billing_period' | 'cancel' | 'revoke' | 'clear';

/** The fields of each alternative of SubscriptionUpdate (polar-api.md §3.4), with the required ones. */
const ALTERNATIVES: Record<
  Alternative,
  { fields: (keyof SubscriptionUpdateInput)[]; required: (keyof SubscriptionUpdateInput)[] }
> = {
  base: {
    fields: ['metadata', 'productId', 'prorationBehavior', 'discountId', 'removeDiscount', 'trialEnd', 'endTrialNow'],
    required: [],
  },
  seats: { fields: ['seats', 'prorationBehavior'], required: ['seats'] },
  billing_period: { fields: ['currentBillingPeriodEnd'], required: ['currentBillingPeriodEnd'] },
  cancel: {
    fields: ['cancelAtPeriodEnd', 'customerCancellationReason', 'customerCancellationComment'],
    required: ['cancelAtPeriodEnd'],
  },
  revoke: { fields: ['revoke', 'customerCancellationReason', 'customerCancellationComment'], required: ['revoke'] },
  clear: { fields: ['clearPendingUpdate'], required: ['clearPendingUpdate'] },
};

const PRORATION_BEHAVIORS: readonly ProrationBehavior[] = ['invoice', 'prorate', 'next_period', 'reset'];
const CANCELLATION_REASONS = new Set<string>(Object.values(CustomerCancellationReason));

/**
 * Polar's default `proration_behavior` is the organization's setting, which lives in identity; billing
 * does not read identity's tables, so a body without one uses Polar's default setting, `prorate`.
 */
export const DEFAULT_PRORATION_BEHAVIOR: ProrationBehavior = 'prorate';

const FLAGS = new Set<keyof SubscriptionUpdateInput>(['removeDiscount', 'endTrialNow', 'clearPendingUpdate']);

/** The fields an input sets (null and absent are the same; a flag counts when true). */
function presentFields(input: SubscriptionUpdateInput): (keyof SubscriptionUpdateInput)[] {
  return (Object.keys(input) as (keyof SubscriptionUpdateInput)[]).filter(k => {
    const value = input[k];
    if (value === undefined || value === null) return false;
    return FLAGS.has(k) ? value === true : true;
  });
}

/**
 * Which single alternative an input is (the REST edge has already checked this for REST bodies,
 * with pydantic's item for each variant). Nothing set: the empty SubscriptionUpdateBase.
 */
export function classifyUpdate(input: SubscriptionUpdateInput): Alternative {
  if (input.revoke === false) {
    throw new PolarRequestValidationError([
      {
        type: 'literal_error',
        loc: ['body', 'revoke'],
        msg: 'Input should be True',
        input: false,
        ctx: { expected: 'True' },
      },
    ]);
  }
  const present = presentFields(input);
  const matches = (Object.keys(ALTERNATIVES) as Alternative[]).filter(name => {
    const { fields, required } = ALTERNATIVES[name];
    return present.every(k => fields.includes(k)) && required.every(k => present.includes(k));
  });
  if (!matches.length) {
    throw new PolarRequestValidationError([
      {
        type: 'value_error',
        loc: ['body'],
        msg: `Fields ${present.join(', ')} do not form one alternative of SubscriptionUpdate.`,
        input,
      },
    ]);
  }
  return matches[0];
}

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
      case 'billing_period':
        transitions.assertNotCanceled(s);
        requireFuture(input.currentBillingPeriodEnd!, 'current_billing_period_end', now);
        return transitions.setBillingPeriodEnd(s, input.currentBillingPeriodEnd!, now);
      case 'seats':
        return this.changeSeats(em, s, input.seats!, behaviorOf(input.prorationBehavior), now);
      case 'base':
        return this.applyBase(em, s, input, now);
    }
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
    transitions.assertNotCanceled(s);
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
    return transitions.combine(results);
  }

  /**
   * Product change. `next_period` stores a pending update applied at the renewal. `invoice`,
   * `prorate` and `reset` apply now: between free products nothing is billed; a change that moves
   * money goes through the charger seam first (the billing engine; until then 402
   * `missing_payment_method`) and nothing changes if it fails. A trialing subscription is not billed
   * for the change (polar-api.md §9).
   */
  private async changeProduct(
    em: EntityManager,
    s: Subscription,
    productId: string,
    behavior: ProrationBehavior,
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
    if (behavior === 'next_period')
      return transitions.schedulePendingUpdate(s, { productId: product.id, seats: s.seats }, now);
    const from = billedTerms(s);
    const result = transitions.changeProduct(s, terms, now);
    if (result.changed)
      await this.charge({ em, subscription: s, behavior, now, kind: 'product_change', from, to: terms });
    return result;
  }

  private async changeSeats(
    em: EntityManager,
    s: Subscription,
    seats: number,
    behavior: ProrationBehavior,
    now: Date,
  ): Promise<TransitionResult> {
    transitions.assertNotCanceled(s);
    const prices = await new ProductRepository(em).findPricesByIds(s.priceIds);
    const seatPrice = prices.find(p => p.amountType === PriceAmountType.SEAT_BASED);
    if (!seatPrice?.seatTiers) throw new NotASeatBasedSubscription(s.id);
    const amount = seatTotal(seatPrice.seatTiers, seats);
    if (behavior === 'next_period') return transitions.schedulePendingUpdate(s, { productId: null, seats }, now);
    const from = billedTerms(s);
    const result = transitions.changeSeats(s, seats, amount, now);
    if (result.changed)
      await this.charge({ em, subscription: s, behavior, now, kind: 'seats_change', from, to: billedTerms(s) });
    return result;
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
   * anything commits; a trialing subscription is not billed for a change (polar-api.md §9).
   */
  private async charge(change: PaidChange): Promise<void> {
    if (change.from.amount === 0n && change.to.amount === 0n) return;
    if (change.subscription.status === SubscriptionStatus.TRIALING) return;
    await this.deps.charger.chargeNow(change);
  }
}

/** What the subscription bills per period as it stands. */
function billedTerms(s: Subscription): PaidChange['from'] {
  return { productId: s.productId, amount: BigInt(s.amount), currency: s.currency, seats: s.seats };
}

function isEmptyBase(input: SubscriptionUpdateInput): boolean {
  return presentFields(input).length === 0;
}

/** Checks GraphQL clients get too (REST bodies have passed the same rules at the edge). */
function checkInput(input: SubscriptionUpdateInput): void {
  const issues: ValidationIssue[] = [];
  if (input.metadata != null) issues.push(...metadataIssues(input.metadata));
  if (input.prorationBehavior != null && !PRORATION_BEHAVIORS.includes(input.prorationBehavior as ProrationBehavior)) {
    issues.push({
      type: 'enum',
      loc: ['body', 'proration_behavior'],
      msg: "Input should be 'invoice', 'prorate', 'next_period' or 'reset'",
      input: input.prorationBehavior,
    });
  }
  if (input.customerCancellationReason != null && !CANCELLATION_REASONS.has(input.customerCancellationReason)) {
    issues.push({
      type: 'enum',
      loc: ['body', 'customer_cancellation_reason'],
      msg: `Input should be ${[...CANCELLATION_REASONS].map(r => `'${r}'`).join(', ')}`,
      input: input.customerCancellationReason,
    });
  }
  if (input.seats != null && (!Number.isInteger(input.seats) || input.seats < 1)) {
    issues.push({
      type: 'greater_than_equal',
      loc: ['body', 'seats'],
      msg: 'Input should be greater than or equal to 1',
      input: input.seats,
      ctx: { ge: 1 },
    });
  }
  if (input.customerCancellationComment != null && input.customerCancellationComment.length > 2000) {
    issues.push({
      type: 'string_too_long',
      loc: ['body', 'customer_cancellation_comment'],
      msg: 'String should have at most 2000 characters',
      input: input.customerCancellationComment,
      ctx: { max_length: 2000 },
    });
  }
  if (issues.length) throw new PolarRequestValidationError(issues);
}

function behaviorOf(value: string | null | undefined): ProrationBehavior {
  return (value as ProrationBehavior | null | undefined) ?? DEFAULT_PRORATION_BEHAVIOR;
}

export function reasonOf(value: string | null | undefined): CustomerCancellationReason | null {
  return value == null ? null : (value as CustomerCancellationReason);
}

/** pydantic's FutureDatetime, checked against the injected clock (sandbox time travel included). */
function requireFuture(value: Date, field: string, now: Date): void {
  if (value.getTime() <= now.getTime()) {
    throw new PolarRequestValidationError([
      {
        type: 'datetime_future',
        loc: ['body', field],
        msg: 'Input should be in the future',
        input: value.toISOString(),
      },
    ]);
  }
}

/**
 * Counts one redemption of the discount for this subscription and checks it applies: same
 * organization, live, inside its validity window, restricted to products that include the
 * subscription's, and below its redemption limit (an atomic conditional increment, so two concurrent
 * redemptions cannot both take the last one).
 */
async function redeemDiscount(em: EntityManager, s: Subscription, discountId: string, now: Date): Promise<void> {
  const issue = (msg: string) =>
    new PolarRequestValidationError([{ type: 'value_error', loc: ['body', 'discount_id'], msg, input: discountId }]);
  const discount = await em.findOne(Discount, { id: discountId, organizationId: s.organizationId, deletedAt: null });
  if (!discount) throw issue('Discount does not exist.');
  if ((discount.startsAt && discount.startsAt > now) || (discount.endsAt && discount.endsAt < now))
    throw issue('Discount is not applicable.');
  if (discount.productIds.length && !discount.productIds.includes(s.productId))
    throw issue('Discount is not applicable to this product.');
  if (discount.type === 'fixed' && discount.currency && discount.currency !== s.currency)
    throw issue('Discount is not applicable to this currency.');
  const updated = await em.execute<{ id: string }[]>(
    'update billing.discounts set redemptions_count = redemptions_count + 1 where id = ? and (max_redemptions is null or redemptions_count < max_redemptions) returning id',
    [discount.id],
  );
  if (!updated.length) throw issue('Discount has reached its redemption limit.');
}

/** What a product bills per period with its live prices (minor units, BigInt). */
export function termsOf(product: Product, prices: ProductPrice[], currentSeats: number | null): ProductTerms {
  const seatPrice = prices.find(p => p.amountType === PriceAmountType.SEAT_BASED && p.seatTiers);
  const seats = seatPrice ? Math.max(currentSeats ?? 0, seatPrice.seatTiers!.tiers[0]?.min_seats ?? 1, 1) : null;
  let amount = 0n;
  for (const price of prices) {
    switch (price.amountType) {
      case PriceAmountType.FIXED:
        amount += BigInt(price.priceAmount ?? 0n);
        break;
      case PriceAmountType.CUSTOM:
        amount += BigInt(price.presetAmount ?? price.minimumAmount ?? 0n);
        break;
      case PriceAmountType.SEAT_BASED:
        if (price.seatTiers && seats !== null) amount += seatTotal(price.seatTiers, seats);
        break;
      case PriceAmountType.FREE:
        break;
    }
  }
  return {
    productId: product.id,
    priceIds: prices.map(p => p.id),
    amount,
    currency: prices[0]?.priceCurrency ?? 'usd',
    recurringInterval: product.recurringInterval!,
    recurringIntervalCount: product.recurringIntervalCount ?? 1,
    seats,
  };
}

/**
 * The per-period total of `seats` seats: volume tiers price every seat at the tier the count falls in;
 * graduated tiers price each seat at its own tier. Outside the tiers → 400.
 */
export function seatTotal(tiers: SeatTiers, seats: number): bigint {
  const sorted = [...tiers.tiers].sort((a, b) => a.min_seats - b.min_seats);
  const minimum = sorted[0]?.min_seats ?? 1;
  if (seats < minimum) throw new BelowMinimumSeats(minimum);
  const last = sorted[sorted.length - 1];
  if (last && last.max_seats !== null && seats > last.max_seats) throw new AboveMaximumSeats(last.max_seats);
  if (tiers.seat_tier_type === 'graduated') {
    let total = 0n;
    for (const tier of sorted) {
      const upper = tier.max_seats ?? Number.MAX_SAFE_INTEGER;
      const inTier = Math.max(0, Math.min(seats, upper) - tier.min_seats + 1);
      total += BigInt(inTier) * BigInt(tier.price_per_seat);
    }
    return total;
  }
  const tier = sorted.find(t => seats >= t.min_seats && (t.max_seats === null || seats <= t.max_seats)) ?? last;
  return BigInt(seats) * BigInt(tier.price_per_seat);
}
