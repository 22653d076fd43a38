import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { SubscriptionUpdateInput } from './subscription.inputs.js';
import { BillingSubscriptionType } from './subscription.type.js';
import { SUBSCRIPTIONS_WRITE } from './subscription.access.js';
import { SubscriptionUpdatePreviewType } from './subscription-update-preview.type.js';

/** Thin: `subscriptions:update` and `subscriptions:revoke` (docs/interface.md#endpoints), rules in the use cases. */
@Resolver(() => BillingSubscriptionType)
export class SubscriptionUpdatesResolver {
  @Mutation(() => BillingSubscriptionType, {
    description:
      'Applies one alternative of SubscriptionUpdate: product/discount/trial/metadata, seats, billing period, cancel or uncancel, revoke, or clearing the pending update. An empty input changes nothing.',
  })
  async updateSubscription(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => SubscriptionUpdateInput) input: SubscriptionUpdateInput,
  ): Promise<BillingSubscriptionType> {
    authorize(ctx.principal, SUBSCRIPTIONS_WRITE);
    const updated = await ctx.services.subscriptionUpdates.update.execute(ctx, id, input);
    return ctx.services.subscriptions.get(ctx, updated.id);
  }

  @Mutation(() => SubscriptionUpdatePreviewType, {
    description:
      'What updateSubscription with the same input would bill (the order made now, or the next renewal order), changing nothing.',
  })
  async previewSubscriptionUpdate(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => SubscriptionUpdateInput) input: SubscriptionUpdateInput,
  ): Promise<SubscriptionUpdatePreviewType> {
    authorize(ctx.principal, SUBSCRIPTIONS_WRITE);
    return SubscriptionUpdatePreviewType.from(await ctx.services.subscriptionUpdates.preview.execute(ctx, id, input));
  }

  @Mutation(() => BillingSubscriptionType, { description: 'Cancels the subscription immediately (status canceled).' })
  async revokeSubscription(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
  ): Promise<BillingSubscriptionType> {
    authorize(ctx.principal, SUBSCRIPTIONS_WRITE);
    const revoked = await ctx.services.subscriptionUpdates.revoke.execute(ctx, id);
    return ctx.services.subscriptions.get(ctx, revoked.id);
  }
}
