import { listenConnectionPid, listenOn } from './database-listeners.js';

/**
 * The channel of background work's wake-ups. Triggers notify it in the transaction that writes the work
 * (`pg_notify('background_work', '<topic>')`, delivered at commit; the migrations of each subgraph say
 * which writes), with a topic per worker as payload: `billing.outbox`, `billing.jobs`, `billing.renewals`,
 * `billing.checkouts`, `<schema>.owner_notices`, `webhooks.queued`. The migrations spell the name out.
 */
export const WORK_CHANNEL = 'background_work';

/** What `listenForWork` hands back. */
export interface WorkSubscription {
  close(): Promise<void>;
}

/** What a subscription to WORK_CHANNEL is told. */
export interface WorkSignals {
  /** A commit notified `topic`. */
  notified(topic: string): void;
  /** The listen connection is up, first or again after a drop: whatever was notified meanwhile is lost. */
  listening(): void;
}

/**
 * Tells `signals` of every commit that notified WORK_CHANNEL on the database behind `databaseUrl` (by
 * any process), and whenever this process's listen connection to it comes up again (database-listeners.ts,
 * shared with the principal caches). The background-work spine (kit/background/) holds one per database.
 * Resolves once listening; rejects when the database cannot be reached.
 */
export function listenForWork(databaseUrl: string, signals: WorkSignals): Promise<WorkSubscription> {
  return listenOn(databaseUrl, WORK_CHANNEL, {
    notified: payload => {
      if (payload) signals.notified(payload);
    },
    listening: () => signals.listening(),
  });
}

/** The backend pid of this process's listen connection to `databaseUrl` (tests cut it), or null. */
export function workListenerPid(databaseUrl: string): number | null {
  return listenConnectionPid(databaseUrl);
}
