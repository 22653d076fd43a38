import { ResourceNotFound } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { ChangePreview } from '../pricing/proration.js';
import { organizationNow } from '../time/organization-clocks.js';
import { emptyQuote, quotePlanChange } from './plan-change-quote.js';
import type { SubscriptionCharger } from './subscription.charger.js';
import type { Subscription } from './subscription.entity.js';
import type { CustomerSubscriptionCancelInput, SubscriptionUpdateInput } from './subscription.inputs.js';
import { CustomerPortalSubscriptions } from './customer-portal-subscriptions.js';
import { SubscriptionRepository } from './subscription.repository.js';
import type { SubscriptionMutationDependencies } from './subscription-mutation.js';
import { UpdateSubscription } from './update-subscription.js';
import { isEmptyBase } from './update-subscription-input.js';

/** Thrown from inside the update's transaction to roll it back once the preview is known. */
class PreviewRollback extends Error {
  constructor(readonly preview: ChangePreview) {
    super('preview: roll back');
  }
}

/**
 * `POST /v1/subscriptions/{id}/update-preview` and the customer portal's
 * `POST /v1/customer-portal/subscriptions/{id}/update-preview`: the very `PATCH` (same checks, same
 * errors, same lock, same behaviour resolution), run with a charger that only quotes (plan-change-quote.ts,
 * the function the real charger bills from) and then rolled back, so the answer equals the order the
 * `PATCH` creates and nothing changes: no order, no charge, no event, no discount redemption.
 */
export class PreviewSubscriptionUpdate {
  constructor(private readonly deps: SubscriptionMutationDependencies) {}

  async execute(ctx: RequestContext, id: string, input: SubscriptionUpdateInput): Promise<ChangePreview> {
    if (isEmptyBase(input)) {
      const subscription = await new SubscriptionRepository(ctx.em).findReadable(ctx.principal, id);
      if (!subscription) throw new ResourceNotFound();
      return emptyQuote(subscription, null, await organizationNow(ctx, subscription.organizationId));
    }
    return this.rolledBack(deps => new UpdateSubscription(deps).execute(ctx, id, input));
  }

  /**
   * The portal's PATCH body (a plan or seat change with the organization's proration choice, cancel,
   * uncancel, pause, resume); a body that changes nothing quotes nothing, as the PATCH answers 200.
   */
  async portal(ctx: RequestContext, id: string, input: CustomerSubscriptionCancelInput): Promise<ChangePreview> {
    const portal = new CustomerPortalSubscriptions(this.deps);
    if (portal.isNoOp(input)) {
      const subscription = await portal.findOwn(ctx, id);
      return emptyQuote(subscription, null, await organizationNow(ctx, subscription.organizationId));
    }
    return this.rolledBack(deps => new CustomerPortalSubscriptions(deps).update(ctx, id, input));
  }

  /** Runs a write with the quoting charger, no events, and a rollback once the change is applied. */
  private async rolledBack(
    write: (deps: SubscriptionMutationDependencies) => Promise<Subscription>,
  ): Promise<ChangePreview> {
    let quoted: ChangePreview | null = null;
    const sale = this.deps.tax;
    const charger: SubscriptionCharger = {
      async chargeNow(change) {
        quoted = (await quotePlanChange(change, sale)).preview;
      },
    };
    const afterApply = (subscription: Subscription, now: Date) => {
      throw new PreviewRollback(quoted ?? emptyQuote(subscription, null, now));
    };
    try {
      await write({ ...this.deps, charger, recordEvents: async () => {}, afterApply });
    } catch (error) {
      if (error instanceof PreviewRollback) return error.preview;
      throw error;
    }
    throw new Error('a preview must roll back');
  }
}
