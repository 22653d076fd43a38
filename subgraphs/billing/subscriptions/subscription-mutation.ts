import type { EntityManager } from '@mikro-orm/postgresql';
import { ResourceNotFound } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { SubscriptionCharger } from './subscription.charger.js';
import type { ProrationSettingsSource } from './proration-settings.js';
import type { Subscription } from './subscription.entity.js';
import { lockSubscription } from './subscription.lock.js';
import type { SubscriptionChangeRecorder } from './subscription.events.js';
import type { TransitionResult } from './subscription.transitions.js';
import { organizationNow } from '../time/organization-clocks.js';

export interface SubscriptionMutationDependencies {
  charger: SubscriptionCharger;
  /** The organization's proration behaviours (identity's settings, handed over at composition). */
  prorationSettings: ProrationSettingsSource;
  recordEvents: SubscriptionChangeRecorder;
  /**
   * Runs inside the transaction once the change is applied, before anything is flushed: a preview
   * throws from it to roll everything back (update-subscription-preview.ts).
   */
  afterApply?: (subscription: Subscription, now: Date) => void;
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
    deps.afterApply?.(subscription, now);
    if (result.changed) {
      await em.flush();
      await deps.recordEvents(em, subscription, ['subscription.updated', ...result.events], now);
      await em.flush();
    }
    return subscription;
  });
}
