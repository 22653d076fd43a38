import pg from 'pg';
import { DEFAULT_DATABASE_WAITS } from '../config.js';

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/** What a `ChannelListener` tells its user. */
export interface ChannelHandlers {
  /** A notification on the channel, at its sender's commit. */
  notified(payload: string | undefined): void;
  /**
   * The connection listens, first or again after a drop. Whatever was notified while it was down is
   * lost: this is where a user looks again (the webhook worker polls, the principal caches trust
   * themselves again).
   */
  listening?(): void;
  /** The connection dropped; a reconnect is scheduled. */
  lost?(): void;
}

/**
 * A dedicated connection that LISTENs on one PostgreSQL channel, reconnecting with backoff when the
 * connection drops. Used for wake-ups (the webhook worker, which also polls) and for the principal
 * caches' invalidations (principal-invalidations.ts, which stop trusting themselves while it is down).
 */
export class ChannelListener {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private retryMs = RECONNECT_MIN_MS;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly channel: string,
    private readonly handlers: ChannelHandlers,
    private readonly applicationName: string,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
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
      connectionString: this.databaseUrl,
      application_name: this.applicationName,
      keepAlive: true,
      // Opening the connection is bounded (a reconnect is scheduled when it fails); it only LISTENs.
      connectionTimeoutMillis: DEFAULT_DATABASE_WAITS.acquireTimeoutMs,
    });
    client.on('notification', message => {
      if (message.channel === this.channel) this.handlers.notified(message.payload);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    try {
      await client.query(`listen ${this.channel}`);
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
