import { PRINCIPAL_INVALIDATION_CHANNEL, type PrincipalCache, parseInvalidation } from '../principal-cache.js';
import { type ChannelSubscription, listenOn } from './database-listeners.js';

/** How long `announce` waits for its own notification at most: it is a courtesy, never a failure. */
const DELIVERY_WAIT_MS = 2_000;

/**
 * The principal invalidation channel, heard on this process's one listen connection per database
 * (database-listeners.ts, shared with background work's wake-ups): each notification is applied to
 * every principal cache attached. Shared: the identity and billing runtimes of one environment (and the
 * tests' extra stacks) attach to one listener, so a process costs no connection per cache.
 *
 * While the connection is up the caches are synchronized (kit/principal-cache.ts trusts its
 * entries). When it drops, they are cleared and stop caching until the listener is back (the
 * ChannelListener reconnects with backoff): a notification sent meanwhile was missed, so nothing
 * remembered from before can be trusted.
 */
class InvalidationListener {
  readonly caches = new Set<PrincipalCache>();
  private subscription: ChannelSubscription | undefined;
  /** Resolves when the listener listens (again); what tests wait for after cutting the connection. */
  private listening: Promise<void>;
  private markListening!: () => void;
  /** `announce` calls waiting for their own notification, by nonce. */
  private readonly waiting = new Map<string, () => void>();
  private readonly awaitDelivery = (nonce: string): Promise<void> =>
    new Promise<void>(resolve => {
      const waiting = this.waiting;
      const timer = setTimeout(done, DELIVERY_WAIT_MS);
      timer.unref();
      function done(): void {
        clearTimeout(timer);
        waiting.delete(nonce);
        resolve();
      }
      waiting.set(nonce, done);
    });

  constructor(private readonly databaseUrl: string) {
    this.listening = this.pending();
  }

  /** Connects and listens; rejects when the first attempt fails (the process should not start half-synchronized). */
  async start(): Promise<void> {
    this.subscription = await listenOn(this.databaseUrl, PRINCIPAL_INVALIDATION_CHANNEL, {
      notified: payload => {
        const invalidation = parseInvalidation(payload);
        for (const cache of this.caches) cache.evict(invalidation);
        this.delivered(payload);
      },
      listening: () => {
        for (const cache of this.caches) cache.setSynchronized(true, this.awaitDelivery);
        this.markListening();
      },
      lost: () => {
        for (const cache of this.caches) cache.setSynchronized(false);
        // The caches are cleared: nothing is left for a waiting announce to wait for.
        for (const done of [...this.waiting.values()]) done();
        this.listening = this.pending();
      },
    });
    // The shared connection came up before this subscription (its `listening` was not ours to hear).
    if (this.subscription.connected) this.markListening();
  }

  attach(cache: PrincipalCache): void {
    this.caches.add(cache);
    cache.setSynchronized(this.subscription?.connected ?? false, this.awaitDelivery);
  }

  detach(cache: PrincipalCache): void {
    this.caches.delete(cache);
    cache.setSynchronized(false);
  }

  whenListening(): Promise<void> {
    return this.listening;
  }

  /** The backend pid of the listen connection (tests cut it with pg_terminate_backend). */
  get backendPid(): number | null {
    return this.subscription?.backendPid ?? null;
  }

  async close(): Promise<void> {
    for (const cache of this.caches) cache.setSynchronized(false);
    await this.subscription?.close();
  }

  private pending(): Promise<void> {
    return new Promise(resolve => {
      this.markListening = resolve;
    });
  }

  /** Wakes the `announce` that sent this notification, if it was sent from this process. */
  private delivered(payload: string | undefined): void {
    let nonce: unknown;
    try {
      nonce = (JSON.parse(payload ?? '') as { n?: unknown }).n;
    } catch {
      return;
    }
    if (typeof nonce === 'string') this.waiting.get(nonce)?.();
  }
}

const listeners = new Map<string, { listener: InvalidationListener; ready: Promise<void> }>();

/** What `listenForPrincipalInvalidations` hands back: detach the cache (closing the connection with the last one). */
export interface PrincipalInvalidationSubscription {
  /** Resolves when the shared listener is connected and listening. */
  whenListening(): Promise<void>;
  /** The listen connection's backend pid, or null while disconnected. */
  backendPid(): number | null;
  close(): Promise<void>;
}

/**
 * Keeps `cache` in step with every revocation written to the database behind `databaseUrl`, by any
 * process. Resolves once listening; rejects when the database cannot be reached.
 */
export async function listenForPrincipalInvalidations(
  databaseUrl: string,
  cache: PrincipalCache,
): Promise<PrincipalInvalidationSubscription> {
  let shared = listeners.get(databaseUrl);
  if (!shared) {
    const listener = new InvalidationListener(databaseUrl);
    shared = { listener, ready: listener.start() };
    listeners.set(databaseUrl, shared);
    shared.ready.catch(() => listeners.delete(databaseUrl));
  }
  await shared.ready;
  // The last cache of that listener was detached (and its connection closed) while we waited.
  if (listeners.get(databaseUrl) !== shared) return listenForPrincipalInvalidations(databaseUrl, cache);
  const { listener } = shared;
  listener.attach(cache);
  let closed = false;
  return {
    whenListening: () => listener.whenListening(),
    backendPid: () => listener.backendPid,
    close: async () => {
      if (closed) return;
      closed = true;
      listener.detach(cache);
      if (listener.caches.size === 0 && listeners.get(databaseUrl)?.listener === listener) {
        listeners.delete(databaseUrl);
        await listener.close();
      }
    },
  };
}
