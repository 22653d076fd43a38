import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface VendorCall {
  vendor: 'discord' | 'github' | 'slack';
  method: string;
  /** The path under the vendor's base URL, e.g. `/guilds/1/members/2/roles/3`. */
  path: string;
  body: any;
}

const TOKENS = { discord: 'Bot discord-bot-token', github: 'Bearer github-token', slack: 'Bearer xoxb-slack-token' };

/**
 * Discord, GitHub and Slack as their APIs answer the calls the benefit integrations make, on loopback
 * under `/discord`, `/github`, `/slack`. Checks each vendor's authorization header (401 otherwise, not
 * recorded as a call) and records the calls it accepted. `outage` makes a vendor answer 503 until cleared.
 */
export class FakeVendors {
  readonly calls: VendorCall[] = [];
  readonly refused: string[] = [];
  readonly outage = new Set<VendorCall['vendor']>();
  private server!: Server;
  private channels = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', c => chunks.push(c));
      req.on('end', () => {
        const [, vendor, ...rest] = (req.url ?? '/').split('/');
        const path = `/${rest.join('/')}`;
        const v = vendor as VendorCall['vendor'];
        const json = (status: number, body?: unknown) => {
          res.statusCode = status;
          if (body !== undefined) res.setHeader('content-type', 'application/json');
          res.end(body !== undefined ? JSON.stringify(body) : undefined);
        };
        if (!(v in TOKENS) || req.headers.authorization !== TOKENS[v]) {
          this.refused.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
          return json(401, { message: '401: Unauthorized' });
        }
        if (this.outage.has(v)) return json(503, { message: 'unavailable' });
        const text = Buffer.concat(chunks).toString('utf8');
        this.calls.push({ vendor: v, method: req.method ?? '', path, body: text ? JSON.parse(text) : null });
        if (v === 'discord') return json(204);
        if (v === 'github') return req.method === 'PUT' ? json(201, { id: 1, permissions: 'push' }) : json(204);
        if (path === '/conversations.create')
          return json(200, { ok: true, channel: { id: `C${++this.channels}`, name: JSON.parse(text).name } });
        if (path === '/conversations.inviteShared')
          return json(200, {
            ok: true,
            invite_id: `I${this.channels}`,
            url: `https://join.slack.test/${this.channels}`,
          });
        return json(200, { ok: true });
      });
    });
    await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** The environment that points the integrations here. */
  env(): Record<string, string> {
    const base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return {
      DISCORD_BOT_TOKEN: 'discord-bot-token',
      DISCORD_API_URL: `${base}/discord`,
      GITHUB_BENEFIT_TOKEN: 'github-token',
      GITHUB_BENEFIT_API_URL: `${base}/github`,
      SLACK_BOT_TOKEN: 'xoxb-slack-token',
      SLACK_API_URL: `${base}/slack`,
    };
  }

  of(vendor: VendorCall['vendor']): string[] {
    return this.calls.filter(c => c.vendor === vendor).map(c => `${c.method} ${c.path}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise(resolve => this.server.close(resolve));
  }
}
