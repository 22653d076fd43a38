import type { EntityManager } from '@mikro-orm/postgresql';
import { ResourceNotFound, Unauthorized } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { Subscription } from './subscription.entity.js';
import { CustomerSubscriptionRepository } from './customer-subscription.repository.js';
import type { CustomerSubscriptionCancelInput } from './subscription.inputs.js';
import { subscriptionRead, type SubscriptionReadFilters } from './subscription.read.js';
import * as transitions from './transitions/requested.js';
import { BillingSubscriptionType } from './subscription.type.js';
import { mutateSubscription, type SubscriptionMutationDependencies } from './subscription-mutation.js';
import { PauseResumeNotAllowed, PaymentFailed } from './subscription.errors.js';
import { assertResumable } from './pause-subscription.js';
import { chargeablePaymentMethodFor } from '../payments/saved-payment-methods.js';
import { classifyUpdate, reasonOf } from './update-subscription-input.js';
import { UpdateSubscription } from './update-subscription.js';

export interface CustomerSubscriptionFilters {
  productId?: string[] | null;
  active?: boolean | null;
}

export interface CustomerSubscriptionListQuery extends PageRequest, CustomerSubscriptionFilters {
  sorting?: string[] | null;
}

/**
 * Customer Portal subscriptions: list and get the customer's own, cancel at period end (PATCH
 * `cancel_at_period_end: true` or DELETE) and uncancel (`cancel_at_period_end: false`), with the core
 * API's rules, lock and events.
 */
export class CustomerPortalSubscriptions {
  constructor(private readonly deps: SubscriptionMutationDependencies) {}

  async list(ctx: RequestContext, query: CustomerSubscriptionListQuery) {
    assertCustomer(ctx);
    const descending = (query.sorting?.[0] ?? '-started_at').startsWith('-');
    const filters: SubscriptionReadFilters = {};
    if (query.productId?.length) filters.productId = query.productId;
    if (query.active != null) filters.active = query.active;
    const { rows, total } = await subscriptionRead.page(
      ctx.em,
      ctx.principal,
      filters,
      [{ key: 'portal_started_at', direction: descending ? 'desc' : 'asc' }],
      pageWindow(query),
    );
    return { items: rows.map(BillingSubscriptionType.fromRow), pagination: paginationOf(total, query.limit) };
  }

  /** The customer's own subscription as served (read path, one statement). */
  async get(ctx: RequestContext, id: string): Promise<BillingSubscriptionType> {
    assertCustomer(ctx);
    const row = await subscriptionRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return BillingSubscriptionType.fromRow(row);
  }

  /**
   * PATCH with `CustomerSubscriptionUpdateProduct` / `…Seats` (a plan change, update-subscription.ts
   * `changePlan`) or `CustomerSubscriptionCancel`; a cancel without `cancel_at_period_end` is a no-op.
   */
  async update(ctx: RequestContext, id: string, input: CustomerSubscriptionCancelInput): Promise<Subscription> {
    assertCustomer(ctx);
    if (input.productId != null || input.seats != null)
      return new UpdateSubscription(this.deps).changePlan(
        ctx,
        em => new CustomerSubscriptionRepository(em).findReadable(ctx.principal, id),
        { productId: input.productId, seats: input.seats },
      );
    if (input.pauseAtPeriodEnd != null || input.resume != null) return this.pauseOrResume(ctx, id, input);
    if (this.isNoOp(input)) return this.findOwn(ctx, id);
    return mutateSubscription(
      ctx,
      this.deps,
      em => new CustomerSubscriptionRepository(em).findReadable(ctx.principal, id),
      async (_em, s, now) =>
        input.cancelAtPeriodEnd
          ? transitions.cancelAtPeriodEnd(
              s,
              { reason: reasonOf(input.cancellationReason), comment: input.cancellationComment ?? null },
              now,
            )
          : transitions.uncancel(s, now),
    );
  }

  /** A body that asks for nothing (a cancel without `cancel_at_period_end`): 200, nothing changes. */
  isNoOp(input: CustomerSubscriptionCancelInput): boolean {
    return (
      input.productId == null &&
      input.seats == null &&
      input.pauseAtPeriodEnd == null &&
      input.resume == null &&
      input.cancelAtPeriodEnd == null
    );
  }

  /** The customer's own subscription as an entity (404 for anyone else's). */
  async findOwn(ctx: RequestContext, id: string): Promise<Subscription> {
    assertCustomer(ctx);
    const found = await new CustomerSubscriptionRepository(ctx.em).findReadable(ctx.principal, id);
    if (!found) throw new ResourceNotFound();
    return found;
  }

  /**
   * `CustomerSubscriptionPause` / `CustomerSubscriptionResume`: the rules of the PATCH, allowed only when
   * the organization turned `customer_portal_settings.subscription.pause` on (Polar's default is off).
   */
  private pauseOrResume(
    ctx: RequestContext,
    id: string,
    input: CustomerSubscriptionCancelInput,
  ): Promise<Subscription> {
    // `resume: false` is pydantic's literal error (422), as in the merchant's PATCH.
    if (input.resume === false) classifyUpdate({ resume: false });
    return mutateSubscription(
      ctx,
      this.deps,
      em => new CustomerSubscriptionRepository(em).findReadable(ctx.principal, id),
      async (em, s, now) => {
        const settings = await this.deps.prorationSettings(s.organizationId);
        if (!settings?.customer_portal_subscription_pause) throw new PauseResumeNotAllowed();
        if (input.resume) await requirePaymentMethod(em, s);
        return new UpdateSubscription(this.deps).pauseOrResume(em, s, input, now);
      },
    );
  }

  /** DELETE: cancel at the end of the period (the customer portal never revokes at once here). */
  cancel(ctx: RequestContext, id: string): Promise<Subscription> {
    return this.update(ctx, id, { cancelAtPeriodEnd: true });
  }
}

/**
 * Polar's `_require_payment_method`: a paid subscription resumes from the portal only with a card to
 * charge for the new period (else 402 `PaymentFailed`, `missing_payment_method`, and it stays paused);
 * without one the resumed period's charge would only fail into dunning. The state's own errors
 * (rule 1, 409 `NotPausedSubscription`) come first.
 */
async function requirePaymentMethod(em: EntityManager, s: Subscription): Promise<void> {
  assertResumable(s);
  if (s.amount > 0n && !(await chargeablePaymentMethodFor(em, s.customerId)))
    throw new PaymentFailed('missing_payment_method');
}

/** Only a customer session has subscriptions here (the resolvers' rule says so too). */
function assertCustomer(ctx: RequestContext): void {
  if (ctx.principal.subject !== 'customer' || !ctx.principal.subjectId) throw new Unauthorized();
}
