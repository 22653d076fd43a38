import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received, as text. */
  body: string;
}

/**
 * A webhook receiver on loopback: records every request and answers 200, or the status `statusOf`
 * returns for its path (e.g. 500 under /fail); requests under /hang are never answered.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private server!: Server;
  private waiters: (() => void)[] = [];

  constructor(private readonly statusOf: (path: string) => number = path => (path.startsWith('/fail') ? 500 : 200)) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', c => chunks.push(c));
      req.on('end', () => {
        this.received.push({
          path: req.url ?? '/',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        for (const wake of this.waiters.splice(0)) wake();
        // Under /hang nothing is ever answered (the sender's timeout must end the exchange).
        if (req.url?.startsWith('/hang')) return;
        res.statusCode = this.statusOf(req.url ?? '/');
        res.end('ok');
      });
    });
    await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  on(path: string): ReceivedWebhook[] {
    return this.received.filter(r => r.path === path);
  }

  /** Resolves once `condition` holds (re-checked after every request); fails after `ms`. */
  async until(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>(resolve => {
        const timer = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise(resolve => this.server.close(resolve));
  }
}
