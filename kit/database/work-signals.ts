import { ChannelListener } from './channel-listener.js';

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
 * One LISTEN connection per database and process, shared by every background loop on that database:
 * a notification wakes the loops of its topic. When the connection comes up (first, or again after a
 * drop, which the ChannelListener retries with backoff) every loop is woken: whatever was notified
 * while nobody listened is looked for once.
 */
class WorkListener {
  readonly wakes = new Map<string, Set<() => void>>();
  private readonly channel: ChannelListener;

  constructor(databaseUrl: string) {
    this.channel = new ChannelListener(
      databaseUrl,
      WORK_CHANNEL,
      {
        notified: topic => {
          for (const wake of this.wakes.get(topic ?? '') ?? []) wake();
        },
        listening: () => {
          for (const wakes of this.wakes.values()) for (const wake of wakes) wake();
        },
      },
      'background-work',
    );
  }

  start(): Promise<void> {
    return this.channel.start();
  }

  get size(): number {
    let n = 0;
    for (const wakes of this.wakes.values()) n += wakes.size;
    return n;
  }

  /** The backend pid of the listen connection (tests cut it with pg_terminate_backend), null while down. */
  get backendPid(): number | null {
    return this.channel.backendPid;
  }

  close(): Promise<void> {
    return this.channel.close();
  }
}

const listeners = new Map<string, { listener: WorkListener; ready: Promise<void> }>();

/**
 * Calls `wake` at every commit that notified `topic` on the database behind `databaseUrl` (any process),
 * and whenever the shared listen connection comes up again. Resolves once listening; rejects when the
 * database cannot be reached.
 */
export async function listenForWork(databaseUrl: string, topic: string, wake: () => void): Promise<WorkSubscription> {
  let shared = listeners.get(databaseUrl);
  if (!shared) {
    const listener = new WorkListener(databaseUrl);
    shared = { listener, ready: listener.start() };
    listeners.set(databaseUrl, shared);
    shared.ready.catch(() => listeners.delete(databaseUrl));
  }
  await shared.ready;
  // The last loop of that listener left (and its connection closed) while we waited.
  if (listeners.get(databaseUrl) !== shared) return listenForWork(databaseUrl, topic, wake);
  const { listener } = shared;
  const wakes = listener.wakes.get(topic) ?? new Set<() => void>();
  listener.wakes.set(topic, wakes);
  // One entry per subscription, even if two subscribe the same function.
  const entry = () => wake();
  wakes.add(entry);
  let closed = false;
  return {
    close: async () => {
      if (closed) return;
      closed = true;
      wakes.delete(entry);
      if (listener.size === 0 && listeners.get(databaseUrl)?.listener === listener) {
        listeners.delete(databaseUrl);
        await listener.close();
      }
    },
  };
}

/** The backend pid of this process's work listen connection to `databaseUrl` (tests cut it), or null. */
export function workListenerPid(databaseUrl: string): number | null {
  return listeners.get(databaseUrl)?.listener.backendPid ?? null;
}
