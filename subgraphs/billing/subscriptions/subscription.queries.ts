import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Hand-written statements of subscription changes, run in the caller's transaction: the per-subscription
 * advisory lock (subscriptions/subscription.lock.ts) and the row lock.
 */
export class SubscriptionQueries {
  constructor(private readonly em: EntityManager) {}

  /** `pg_try_advisory_xact_lock` on the key's hash: whether it was taken (never waits). */
  async tryAdvisoryLock(key: string): Promise<boolean> {
    const row = await this.em.execute<{ locked: boolean }>(
      'select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as locked',
      [key],
      'get',
    );
    return row?.locked ?? false;
  }

  /** `pg_advisory_xact_lock` on the key's hash: waits its turn. */
  async waitForAdvisoryLock(key: string): Promise<void> {
    await this.em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [key], 'get');
  }

  /** Row-locks the subscription until the transaction ends (waits for a transaction holding it). */
  async lockRow(subscriptionId: string): Promise<void> {
    await this.em.execute('select id from billing.subscriptions where id = ? for update', [subscriptionId]);
  }
}
