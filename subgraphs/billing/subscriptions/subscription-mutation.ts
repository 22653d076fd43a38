import type { EntityManager } from '@mikro-orm/postgresql';
import { ResourceNotFound } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { SubscriptionCharger } from './subscription.charger.js';
import type { ProrationSettingsSource } from './proration-settings.js';
import type { Subscription } from './subscription.entity.js';
import { lockSubscription, waitForSubscriptionLock } from './subscription.lock.js';
import type { SubscriptionChangeRecorder } from './subscription.events.js';
import type { TransitionResult } from './transitions/state.js';
import { organizationNow } from '../time/organization-clocks.js';
import type { SaleTax } from '../orders/sale-tax.js';

/**
 * How a writer waits for a subscription's lock: a request gives up at once (`try`: 409
 * SubscriptionLocked), background work (renewals, customer deletion) waits its turn (`wait`).
 */
export type SubscriptionLockMode = 'try' | 'wait';

export interface SubscriptionFrame {
  lock: SubscriptionLockMode;
  /** The instant the change is made at: the organization's clock (the sandbox clock in the sandbox). */
  now: (subscription: Subscription) => Date | Promise<Date>;
  /** Writes `subscription.updated` and the transition's own kinds to the outbox. */
  recordEvents: SubscriptionChangeRecorder;
  /** Runs once the change is applied, before anything is flushed (a preview throws from it). */
  afterApply?: (subscription: Subscription, now: Date) => void;
}

/**
 * The frame every change of a subscription runs in, inside the caller's transaction: (1) take the
 * subscription's advisory lock (`try` or `wait`), (2) read the row under the lock so the change applies
 * to the latest committed state (no lost update) — `read` may find nothing (the work is no longer due:
 * nothing happens, null is returned), (3) apply the named transitions (subscriptions/transitions/),
 * (4) flush and write `subscription.updated` plus the transitions' own events to the outbox, in the
 * same transaction. Any error rolls everything back with the caller's transaction.
 */
export async function inSubscriptionFrame(
  em: EntityManager,
  frame: SubscriptionFrame,
  subscriptionId: string,
  read: (em: EntityManager) => Promise<Subscription | null>,
  apply: (em: EntityManager, subscription: Subscription, now: Date) => Promise<TransitionResult>,
): Promise<Subscription | null> {
  if (frame.lock === 'try') await lockSubscription(em, subscriptionId);
  else await waitForSubscriptionLock(em, subscriptionId);
  const subscription = await read(em);
  if (!subscription) return null;
  const now = await frame.now(subscription);
  const result = await apply(em, subscription, now);
  frame.afterApply?.(subscription, now);
  if (result.changed) {
    await em.flush();
    await frame.recordEvents(em, subscription, ['subscription.updated', ...result.events], now);
    await em.flush();
  }
  return subscription;
}

export interface SubscriptionMutationDependencies {
  charger: SubscriptionCharger;
  /** The organization's proration behaviours (identity's settings, handed over at composition). */
  prorationSettings: ProrationSettingsSource;
  recordEvents: SubscriptionChangeRecorder;
  /** What orders made by a change (a resume's renewal, a previewed plan change) are taxed with; none: no tax. */
  tax?: SaleTax | null;
  /**
   * Runs inside the transaction once the change is applied, before anything is flushed: a preview
   * throws from it to roll everything back (update-subscription-preview.ts).
   */
  afterApply?: (subscription: Subscription, now: Date) => void;
}

/**
 * A request's change of a subscription: one transaction that finds the subscription the caller may
 * change (404 otherwise — before the lock, so a foreign id never answers 409), then runs the frame
 * with the `try` lock (409 SubscriptionLocked at once if another write holds it) at the
 * organization's clock.
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
    const frame: SubscriptionFrame = {
      lock: 'try',
      now: subscription => organizationNow(ctx, subscription.organizationId),
      recordEvents: deps.recordEvents,
      afterApply: deps.afterApply,
    };
    const changed = await inSubscriptionFrame(
      em,
      frame,
      found.id,
      async em => (await em.refresh(found)) ?? found,
      apply,
    );
    return changed ?? found;
  });
}
