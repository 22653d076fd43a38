import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../../kit/request-context.js';
import type { Subscription } from './subscription.entity.js';
import { SubscriptionRepository } from './subscription.repository.js';
import * as transitions from './transitions/requested.js';
import { mutateSubscription, type SubscriptionMutationDependencies } from './subscription-mutation.js';

/**
 * `DELETE /v1/subscriptions/{id}` (`subscriptions:revoke`, docs/interface.md#subscription-changes): any live status becomes
 * `canceled` at once (canceled_at = ends_at = ended_at = now), answered 200 with the subscription.
 * Canceled or set to cancel at period end → 403; another write in flight → 409; in the outbox:
 * `subscription.updated`, `subscription.canceled`, `subscription.revoked`.
 */
export class RevokeSubscription {
  constructor(private readonly deps: SubscriptionMutationDependencies) {}

  execute(ctx: RequestContext, id: string): Promise<Subscription> {
    return mutateSubscription(
      ctx,
      this.deps,
      (em: EntityManager) => new SubscriptionRepository(em).findReadable(ctx.principal, id),
      async (_em, subscription, now) => transitions.revoke(subscription, {}, now),
    );
  }
}
