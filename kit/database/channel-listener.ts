import pg from 'pg';

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/**
 * A dedicated connection that LISTENs on one PostgreSQL channel and calls `onNotify` for each
 * notification, reconnecting with backoff when the connection drops. For hints only: a notification
 * sent while it is down is lost, so its user must also poll (the webhook worker does). The principal
 * caches, which must know when they missed something, have their own (principal-invalidations.ts).
 */
export class ChannelListener {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private retryMs = RECONNECT_MIN_MS;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly channel: string,
    private readonly onNotify: () => void,
    private readonly applicationName: string,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  }

  /** Connects and listens; rejects when the first attempt fails. */
  async start(): Promise<void> {
    await this.connect();
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
    });
    client.on('notification', message => {
      if (message.channel === this.channel) this.onNotify();
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
    // Whatever was notified while disconnected is found by the next look.
    this.onNotify();
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
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
