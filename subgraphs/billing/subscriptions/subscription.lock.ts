import type { EntityManager } from '@mikro-orm/postgresql';
import { SubscriptionLocked } from './subscription.errors.js';
import { SubscriptionQueries } from './subscription.queries.js';

/**
 * Per-subscription serialisation (docs/interface.md#subscription-changes rule 2, docs/reliability.md#per-subscription-locking): a transaction-scoped
 * advisory lock on `hashtextextended('subscription:' || id, 0)`, taken with the `try` variant so a
 * second writer gets 409 SubscriptionLocked at once instead of waiting (and can never overwrite the
 * first writer's change with a stale copy). The lock is released by the commit or rollback of the
 * transaction it was taken in, so it must be called inside `em.transactional(...)`, before the row is
 * read. The renewal worker takes the same key with the blocking `pg_advisory_xact_lock`.
 */
export function subscriptionLockKey(subscriptionId: string): string {
  return `subscription:${subscriptionId}`;
}

export async function lockSubscription(em: EntityManager, subscriptionId: string): Promise<void> {
  if (!em.isInTransaction()) throw new Error('lockSubscription must run inside a transaction');
  if (!(await new SubscriptionQueries(em).tryAdvisoryLock(subscriptionLockKey(subscriptionId))))
    throw new SubscriptionLocked();
}

/** The blocking variant, for background work that must wait its turn rather than give up. */
export async function waitForSubscriptionLock(em: EntityManager, subscriptionId: string): Promise<void> {
  if (!em.isInTransaction()) throw new Error('waitForSubscriptionLock must run inside a transaction');
  await new SubscriptionQueries(em).waitForAdvisoryLock(subscriptionLockKey(subscriptionId));
}
