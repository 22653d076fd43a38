import { listenConnectionPid, listenOn } from './database-listeners.js';

/**
 * The channel of background work's wake-ups. Triggers notify it in the transaction that writes the work
 * (`pg_notify('background_work', '<topic>')`, delivered at commit; the migrations of each subgraph say
 * which writes), with a topic per loop as payload: `billing.outbox`, `billing.jobs`, `billing.renewals`,
 * `billing.checkouts`, `<schema>.owner_notices`, `webhooks.queued`. The migrations spell the name out.
 */
export const WORK_CHANNEL = 'background_work';

/** What `listenForWork` hands back. */
export interface WorkSubscription {
  close(): Promise<void>;
}

/**
 * Calls `wake` at every commit that notified `topic` on the database behind `databaseUrl` (by any
 * process), and whenever this process's listen connection to it comes up again (database-listeners.ts,
 * shared with every other loop and the principal caches): whatever was notified while nobody listened
 * is looked for once. Resolves once listening; rejects when the database cannot be reached.
 */
export function listenForWork(databaseUrl: string, topic: string, wake: () => void): Promise<WorkSubscription> {
  return listenOn(databaseUrl, WORK_CHANNEL, {
    notified: payload => {
      if (payload === topic) wake();
    },
    listening: wake,
  });
}

/** The backend pid of this process's listen connection to `databaseUrl` (tests cut it), or null. */
export function workListenerPid(databaseUrl: string): number | null {
  return listenConnectionPid(databaseUrl);
}
