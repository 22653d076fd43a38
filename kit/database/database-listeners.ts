import { type ChannelHandlers, ChannelListener } from './channel-listener.js';

/** What `listenOn` hands back. */
export interface ChannelSubscription {
  /** Whether the shared connection is up (it listens on the channel then). */
  readonly connected: boolean;
  /** Its backend pid (tests cut it with pg_terminate_backend), null while down. */
  readonly backendPid: number | null;
  /** Stops calling the handlers; the connection closes with its last subscription. */
  close(): Promise<void>;
}

/**
 * One LISTEN connection per database and process, whatever listens on it: the principal caches'
 * invalidations (principal-invalidations.ts) and background work's wake-ups (work-signals.ts). A
 * process thus costs one more connection per database, not one per cache or loop. Each subscriber gets
 * the notifications of its channel, and every `listening` (connected, first or again after a drop) and
 * `lost` of the connection.
 */
class SharedListener {
  readonly subscribers = new Map<string, Set<ChannelHandlers>>();
  readonly channel: ChannelListener;

  constructor(databaseUrl: string) {
    this.channel = new ChannelListener(
      databaseUrl,
      [],
      {
        notified: (payload, channel) => {
          for (const handlers of [...(this.subscribers.get(channel) ?? [])]) handlers.notified(payload, channel);
        },
        listening: () => {
          for (const handlers of this.all()) handlers.listening?.();
        },
        lost: () => {
          for (const handlers of this.all()) handlers.lost?.();
        },
      },
      'billing-listen',
    );
  }

  get size(): number {
    let n = 0;
    for (const handlers of this.subscribers.values()) n += handlers.size;
    return n;
  }

  private all(): ChannelHandlers[] {
    return [...this.subscribers.values()].flatMap(handlers => [...handlers]);
  }
}

const listeners = new Map<string, { shared: SharedListener; ready: Promise<void> }>();

/**
 * Calls `handlers` for the notifications of `channel` on the database behind `databaseUrl` (sent by any
 * process), over this process's one listen connection to it. Resolves once listening; rejects when the
 * database cannot be reached.
 */
export async function listenOn(
  databaseUrl: string,
  channel: string,
  handlers: ChannelHandlers,
): Promise<ChannelSubscription> {
  let entry = listeners.get(databaseUrl);
  if (!entry) {
    const shared = new SharedListener(databaseUrl);
    entry = { shared, ready: shared.channel.start() };
    listeners.set(databaseUrl, entry);
    entry.ready.catch(() => listeners.delete(databaseUrl));
  }
  await entry.ready;
  // The last subscription of that connection was closed (and the connection with it) while we waited.
  if (listeners.get(databaseUrl) !== entry) return listenOn(databaseUrl, channel, handlers);
  const { shared } = entry;
  const subscribers = shared.subscribers.get(channel) ?? new Set<ChannelHandlers>();
  shared.subscribers.set(channel, subscribers);
  // A subscription of its own, even when the same handlers subscribe twice.
  const own: ChannelHandlers = {
    notified: (payload, name) => handlers.notified(payload, name),
    listening: () => handlers.listening?.(),
    lost: () => handlers.lost?.(),
  };
  subscribers.add(own);
  await shared.channel.listen(channel);
  let closed = false;
  return {
    get connected() {
      return shared.channel.connected;
    },
    get backendPid() {
      return shared.channel.backendPid;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      subscribers.delete(own);
      if (shared.size === 0 && listeners.get(databaseUrl) === entry) {
        listeners.delete(databaseUrl);
        await shared.channel.close();
      }
    },
  };
}

/** The backend pid of this process's listen connection to `databaseUrl` (tests cut it), or null. */
export function listenConnectionPid(databaseUrl: string): number | null {
  return listeners.get(databaseUrl)?.shared.channel.backendPid ?? null;
}
