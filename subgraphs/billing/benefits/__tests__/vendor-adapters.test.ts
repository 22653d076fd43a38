import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BenefitActionRequired, VendorUnavailable } from '../benefit-integration.errors.js';
import { integrationsFromSettings } from '../benefit-integrations.config.js';
import { channelNameOf } from '../vendor-adapters.js';

/**
 * How the adapters classify a vendor's answers (Polar's strategies): a loopback server answers each
 * path with the status its last segment names; a closed port is a vendor that does not answer.
 */
let server: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const status = Number((req.url ?? '').split('/').at(-1)) || 204;
    res.statusCode = status;
    res.end(status >= 400 ? '{"message":"Unknown Member"}' : undefined);
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise(resolve => server.close(resolve));
});

const customer = { id: '9f1c2b3a-0000-4000-8000-000000000000', email: 'Zoë.Dev@example.com', name: null, metadata: {} };
const discordAt = (url: string) => integrationsFromSettings({ DISCORD_BOT_TOKEN: 't', DISCORD_API_URL: url }).discord;
const grantRole = (url: string, role: string) =>
  discordAt(url).grant({
    benefitProperties: { guild_id: '1', role_id: role, kick_member: false },
    grantProperties: { account_id: '2' },
    customer,
  });

describe('vendor answers', () => {
  it('2xx grants and records the account', async () => {
    await expect(grantRole(base, '204')).resolves.toMatchObject({ granted_account_id: '2', role_id: '204' });
    expect(seen.at(-1)).toBe('PUT /guilds/1/members/2/roles/204');
  });

  it('429 and 5xx are retriable; another 4xx needs someone to act, with the vendor’s text', async () => {
    await expect(grantRole(base, '429')).rejects.toBeInstanceOf(VendorUnavailable);
    await expect(grantRole(base, '502')).rejects.toBeInstanceOf(VendorUnavailable);
    const refused = grantRole(base, '404');
    await expect(refused).rejects.toBeInstanceOf(BenefitActionRequired);
    await expect(refused).rejects.toThrow('Discord error: {"message":"Unknown Member"}');
  });

  it('a vendor that does not answer is retriable', async () => {
    const closed = createServer();
    await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise(resolve => closed.close(resolve));
    await expect(grantRole(`http://127.0.0.1:${port}`, '204')).rejects.toBeInstanceOf(VendorUnavailable);
  });

  it('an account id never leaves its path segment', async () => {
    await discordAt(base).grant({
      benefitProperties: { guild_id: '1', role_id: '204', kick_member: false },
      grantProperties: { account_id: '../../users/@me' },
      customer,
    });
    expect(seen.at(-1)).toBe('PUT /guilds/1/members/..%2F..%2Fusers%2F%40me/roles/204');
  });
});

describe('Slack channel names', () => {
  it('renders the template, slugified, with 4 hex digits of the customer id', () => {
    expect(channelNameOf('{customer_email_local} – Support', customer)).toBe('zoe-dev-support-9f1c');
    expect(channelNameOf('{metadata.team}', { ...customer, metadata: { team: 'Acme Inc' } })).toBe('acme-inc-9f1c');
    expect(channelNameOf('!!!', customer)).toBe('9f1c');
    expect(() => channelNameOf('{plan}', customer)).toThrow('Unknown placeholder: {plan}.');
  });
});
