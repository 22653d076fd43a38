import { ResourceNotFound } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { ChangePreview } from '../recurring/proration.js';
import { organizationNow } from '../recurring/organization-clocks.js';
import { emptyQuote, quotePlanChange } from './plan-change-quote.js';
import type { SubscriptionCharger } from './subscription.charger.js';
import type { Subscription } from './subscription.entity.js';
import type { SubscriptionUpdateInput } from './subscription.inputs.js';
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
 * `POST /v1/subscriptions/{id}/update-preview`: the very `PATCH` (same checks, same errors, same lock,
 * same behaviour resolution), run with a charger that only quotes (plan-change-quote.ts, the function
 * the real charger bills from) and then rolled back, so the answer equals the order the `PATCH`
 * creates and nothing changes: no order, no charge, no event, no discount redemption.
 */
export class PreviewSubscriptionUpdate {
  constructor(private readonly deps: SubscriptionMutationDependencies) {}

  async execute(ctx: RequestContext, id: string, input: SubscriptionUpdateInput): Promise<ChangePreview> {
    if (isEmptyBase(input)) {
      const subscription = await new SubscriptionRepository(ctx.em).findReadable(ctx.principal, id);
      if (!subscription) throw new ResourceNotFound();
      return emptyQuote(subscription, null, await organizationNow(ctx, subscription.organizationId));
    }
    let quoted: ChangePreview | null = null;
    const charger: SubscriptionCharger = {
      async chargeNow(change) {
        quoted = (await quotePlanChange(change)).preview;
      },
    };
    const update = new UpdateSubscription({ ...this.deps, charger, recordEvents: async () => {} });
    const settle = (subscription: Subscription, now: Date) => {
      throw new PreviewRollback(quoted ?? emptyQuote(subscription, null, now));
    };
    try {
      await update.execute(ctx, id, input, settle);
    } catch (error) {
      if (error instanceof PreviewRollback) return error.preview;
      throw error;
    }
    throw new Error('a preview must roll back');
  }
}
