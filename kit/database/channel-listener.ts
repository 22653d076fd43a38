import pg from 'pg';
import { DEFAULT_DATABASE_WAITS } from '../config.js';
import { directUrlOf } from './direct-urls.js';

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/** What a `ChannelListener` tells its user. */
export interface ChannelHandlers {
  /** A notification on one of the channels, at its sender's commit. */
  notified(payload: string | undefined, channel: string): void;
  /**
   * The connection listens, first or again after a drop. Whatever was notified while it was down is
   * lost: this is where a user looks again (background loops run a pass, the principal caches trust
   * themselves again).
   */
  listening?(): void;
  /** The connection dropped; a reconnect is scheduled. */
  lost?(): void;
}

/**
 * A dedicated connection that LISTENs on PostgreSQL channels, reconnecting with backoff when the
 * connection drops. One per database and process (database-listeners.ts) carries the principal
 * caches' invalidations (principal-invalidations.ts, which stop trusting themselves while it is down)
 * and background work's wake-ups (work-signals.ts, whose loops look again when it is back).
 */
export class ChannelListener {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private retryMs = RECONNECT_MIN_MS;
  private closed = false;
  private readonly channels = new Set<string>();
  /** The LISTEN of each channel added by `listen`, so a second caller waits for the same one. */
  private readonly added = new Map<string, Promise<void>>();

  constructor(
    private readonly databaseUrl: string,
    channels: string | readonly string[],
    private readonly handlers: ChannelHandlers,
    private readonly applicationName: string,
  ) {
    for (const channel of typeof channels === 'string' ? [channels] : channels) this.channels.add(plain(channel));
  }

  /**
   * Listens on one more channel: at once when connected, else from the next (re)connection on. A drop
   * meanwhile is not an error: the reconnection listens on every channel.
   */
  listen(channel: string): Promise<void> {
    if (this.channels.has(plain(channel))) return this.added.get(channel) ?? Promise.resolve();
    this.channels.add(channel);
    const listening = this.client
      ? this.client.query(`listen ${channel}`).then(
          () => undefined,
          () => undefined,
        )
      : Promise.resolve();
    this.added.set(channel, listening);
    return listening;
  }

  /** Connects and listens; rejects when the first attempt fails. */
  async start(): Promise<void> {
    await this.connect();
  }

  get connected(): boolean {
    return this.client !== null;
  }

  /** The backend pid of the listen connection (tests cut it with pg_terminate_backend), null while down. */
  get backendPid(): number | null {
    return (this.client as (pg.Client & { processID?: number }) | null)?.processID ?? null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      // A pooler in transaction mode would hand the LISTEN's session to others: the direct URL, if any.
      connectionString: directUrlOf(this.databaseUrl),
      application_name: this.applicationName,
      keepAlive: true,
      // Opening the connection is bounded (a reconnect is scheduled when it fails); it only LISTENs.
      connectionTimeoutMillis: DEFAULT_DATABASE_WAITS.acquireTimeoutMs,
    });
    client.on('notification', message => {
      if (this.channels.has(message.channel)) this.handlers.notified(message.payload, message.channel);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    try {
      // A channel added meanwhile (listen) is visited too: a Set's iteration includes what is added during it.
      for (const channel of this.channels) await client.query(`listen ${channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = RECONNECT_MIN_MS;
    this.handlers.listening?.();
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.handlers.lost?.();
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect().catch(() => {
        this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
        this.scheduleReconnect();
      });
    }, this.retryMs);
    // A process that is otherwise done must not stay alive just to reconnect.
    this.timer.unref();
  }
}

function plain(channel: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  return channel;
}
