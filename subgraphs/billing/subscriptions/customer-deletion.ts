import type { EntityManager } from '@mikro-orm/postgresql';
import { BILLABLE_STATUSES } from '../shared/enums.js';
import type { Subscription } from './subscription.entity.js';
import { CustomerDeletionRepository } from './customer-deletion.repository.js';
import { recordSubscriptionEvents, type SubscriptionChangeRecorder } from './subscription.events.js';
import { inSubscriptionFrame } from './subscription-mutation.js';
import { endNow } from './transitions/requested.js';
import { type TransitionResult } from './transitions/state.js';

export { recordSubscriptionEvents, type SubscriptionChangeRecorder };

const UNCHANGED: TransitionResult = { changed: false, events: [] };

/**
 * What deleting a customer does to its subscriptions, inside the deletion's transaction: as Polar does
 * (`subscription_service.cancel_customer`), every billable one (active, trialing, past due; not yet
 * ended) ends at once, with the outbox events of `DELETE /v1/subscriptions/{id}`
 * (`subscription.updated`, `.canceled`, `.revoked`). Each runs in the subscription frame with the
 * blocking lock, in id order: a write in flight finishes first, and a consistent order cannot deadlock.
 * The subscriptions are locked before the caller touches the customer's row (a renewal holding a
 * subscription's lock locks its customer's row next). Their outbox rows are written by the returned
 * `publish`, after the caller's own `customer.deleted`, so a consumer sees the deletion first.
 */
export async function endSubscriptionsOfDeletedCustomer(
  em: EntityManager,
  customerId: string,
  now: Date,
  recordEvents: SubscriptionChangeRecorder = recordSubscriptionEvents,
): Promise<() => Promise<void>> {
  const changes: [Subscription, readonly string[]][] = [];
  const collect: SubscriptionChangeRecorder = async (_em, subscription, types) => {
    changes.push([subscription, types]);
  };
  const live = await new CustomerDeletionRepository(em).billableOf(customerId);
  for (const candidate of live) {
    await inSubscriptionFrame(
      em,
      { lock: 'wait', now: () => now, recordEvents: collect },
      candidate.id,
      async em => (await em.refresh(candidate)) ?? candidate,
      async (_em, subscription) =>
        // Ended or no longer billable meanwhile: left as it is.
        !BILLABLE_STATUSES.has(subscription.status) || subscription.endedAt !== null
          ? UNCHANGED
          : endNow(subscription, {}, now),
    );
  }
  return async () => {
    for (const [subscription, types] of changes) await recordEvents(em, subscription, types, now);
    await em.flush();
  };
}
