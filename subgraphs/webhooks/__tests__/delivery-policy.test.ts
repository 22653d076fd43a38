import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret } from '../endpoints/webhook-secret.js';
import { POLAR_DELIVERY_POLICY, retryDelayMs } from '../worker/delivery-policy.js';
import { DeliverySender } from '../worker/delivery-sender.js';
import { signatureHeader, signerFor } from '../worker/delivery-signature.js';
import { checkLiteralHost, ForbiddenTarget, guardedLookup, isPublicAddress } from '../worker/target-policy.js';

describe('signature (docs/polar/webhooks.md, docs/reliability.md#checked-cases case 1)', () => {
  const body = JSON.stringify({
    type: 'customer.deleted',
    timestamp: '2026-01-01T00:00:00.000Z',
    data: { id: 'x' },
  });
  it('verifies with standardwebhooks given the secret as shown, with base64(secret), and by the raw UTF-8 key', () => {
    for (let i = 0; i < 20; i++) {
      const secret = generateWebhookSecret();
      expect(secret).toMatch(/^whsec_[0-9A-Za-z]{43}$/);
      const id = crypto.randomUUID();
      const ts = Math.floor(Date.now() / 1000);
      const headers = {
        'webhook-id': id,
        'webhook-timestamp': String(ts),
        'webhook-signature': signatureHeader(secret, id, ts, body),
      };
      new Webhook(secret).verify(body, headers);
      new Webhook(Buffer.from(secret).toString('base64')).verify(body, headers);
      const polar = createHmac('sha256', Buffer.from(secret)).update(`${id}.${ts}.${body}`).digest('base64');
      expect(headers['webhook-signature'].split(' ')).toContain(`v1,${polar}`);
    }
  });

  it('equals createHmac for keys shorter and longer than a SHA-256 block, signing many messages with one signer', () => {
    for (const secret of ['k', 'x'.repeat(64), 'a longer chosen secret '.repeat(5), generateWebhookSecret()]) {
      const sign = signerFor(secret);
      for (let n = 0; n < 3; n++) {
        const id = `msg_${n}`;
        const message = Buffer.from(`${body}${n}`);
        const expected = createHmac('sha256', Buffer.from(secret))
          .update(`${id}.${n}.`)
          .update(message)
          .digest('base64');
        expect(sign(id, n, message).split(' ')[0]).toBe(`v1,${expected}`);
      }
    }
  });

  it('a chosen secret that is not base64 gets Polar’s signature only (what validateEvent checks)', () => {
    const secret = 'my own secret, not base64 at all!!';
    const id = crypto.randomUUID();
    const ts = Math.floor(Date.now() / 1000);
    const header = signatureHeader(secret, id, ts, body);
    expect(header.split(' ')).toHaveLength(1);
    // validateEvent(body, headers, secret) is `new Webhook(base64(utf8(secret))).verify` (docs/polar/webhooks.md).
    new Webhook(Buffer.from(secret).toString('base64')).verify(body, {
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': header,
    });
  });
});

describe('retry ladder (docs/polar/webhooks.md#retries-and-disabling)', () => {
  it('waits min(2 s·2^n, 20 min) with 50–100 % jitter after the n-th failure', () => {
    for (let n = 1; n < POLAR_DELIVERY_POLICY.maxAttempts; n++) {
      const ceiling = Math.min(2000 * 2 ** n, 20 * 60 * 1000);
      expect(retryDelayMs(n, POLAR_DELIVERY_POLICY, () => 0)).toBe(ceiling / 2);
      expect(retryDelayMs(n, POLAR_DELIVERY_POLICY, () => 1)).toBe(ceiling);
    }
    expect(retryDelayMs(1, POLAR_DELIVERY_POLICY, () => 0.5)).toBe(3000);
    expect(POLAR_DELIVERY_POLICY).toMatchObject({ maxAttempts: 10, failureThreshold: 10 });
  });
});

describe('target policy (docs/reliability.md#checked-cases case 8)', () => {
  it('refuses loopback, private, link-local, CGNAT, unique-local and mapped addresses', () => {
    for (const address of [
      '10.0.0.5',
      '169.254.169.254',
      '100.64.0.1',
      '127.0.0.1',
      '192.168.1.1',
      '172.16.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::10.0.0.1',
    ])
      expect([address, isPublicAddress(address)]).toEqual([address, false]);
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect([address, isPublicAddress(address)]).toEqual([address, true]);
  });

  // Every spelling of an IPv6 address that reaches a private IPv4 one, and the ranges no public host uses.
  it.each([
    ['::127.0.0.1', 'IPv4-compatible, dotted'],
    ['::7f00:1', 'IPv4-compatible, hex groups (what URL parsing makes of [::127.0.0.1])'],
    ['::8.8.8.8', 'IPv4-compatible, even of a public IPv4 (deprecated, ::/96)'],
    ['::ffff:0:7f00:1', 'SIIT IPv4-translated ::ffff:0:0:0/96'],
    ['::ffff:0:10.0.0.1', 'SIIT IPv4-translated, dotted'],
    ['0:0:0:0:0:FFFF:7F00:0001', 'IPv4-mapped, uncompressed upper case'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata address in hex'],
    ['0::ffff:192.168.0.1', 'IPv4-mapped, a leading zero group'],
    ['64:ff9b::7f00:1', 'NAT64 well-known prefix, hex'],
    ['64:ff9b:1::7f00:1', 'NAT64 local-use prefix 64:ff9b:1::/48'],
    ['64:ff9b:1:ffff::8.8.8.8', 'NAT64 local-use prefix, whatever it embeds'],
    ['64:ff9b:0:0:1::', 'the unassigned rest of 64:ff9b::/32'],
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
    ['2002:a00:1::1', '6to4 of 10.0.0.1'],
    ['2002:a9fe:a9fe:1:2:3:4:5', '6to4 of 169.254.169.254'],
    ['2001:0:a00:1::1', 'Teredo with a private server'],
    ['2001:0:808:808::80ff:fffe', 'Teredo whose client is 127.0.0.1 (stored inverted)'],
    ['fec0::1', 'site-local (deprecated)'],
    ['fe80::1%eth0', 'a zoned link-local address'],
    ['::', 'unspecified'],
    ['ff02::1', 'multicast'],
    ['100::1', 'discard-only'],
  ])('refuses %s (%s)', address => {
    expect(isPublicAddress(address)).toBe(false);
    expect(isPublicAddress(`[${address}]`)).toBe(false);
  });

  it.each([
    ['::ffff:8.8.8.8', 'IPv4-mapped public'],
    ['::ffff:808:808', 'IPv4-mapped public, hex'],
    ['64:ff9b::8.8.8.8', 'NAT64 of a public IPv4 (what DNS64 answers on IPv6-only networks)'],
    ['2002:808:808::1', '6to4 of a public IPv4'],
    ['2001:0:808:808::f7f7:f7f7', 'Teredo with public server and client'],
    ['2606:4700:4700::1111', 'native global unicast'],
    ['2a00:1450:4001:80b::200e', 'native global unicast'],
  ])('allows %s (%s)', address => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses each blocked spelling as a URL host, as endpoint creation and delivery read it', () => {
    for (const host of ['[::127.0.0.1]', '[::ffff:0:7f00:1]', '[64:ff9b:1::7f00:1]', '[2002:7f00:1::]']) {
      const url = new URL(`http://${host}/hook`);
      expect(() => checkLiteralHost(url)).toThrow(ForbiddenTarget);
    }
    expect(() => checkLiteralHost(new URL('http://[2002:808:808::1]/hook'))).not.toThrow();
  });

  it('refuses a host name that resolves to loopback, before connecting', async () => {
    const error = await new Promise<Error | null>(resolve => guardedLookup('localhost', {}, e => resolve(e)));
    expect(error).toBeInstanceOf(ForbiddenTarget);
  });
});

describe('sender', () => {
  let server: Server;
  let hits: string[];
  let port: number;
  beforeAll(async () => {
    hits = [];
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/redirect') {
        res.writeHead(302, { location: '/target' });
        res.end();
      } else res.end('x'.repeat(5000));
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise(resolve => server.close(resolve)));

  it('in production refuses a loopback target without opening a connection', async () => {
    const sender = new DeliverySender(false);
    const result = await sender.send(`http://127.0.0.1:${port}/x`, {}, Buffer.from('{}'));
    sender.close();
    expect(result).toMatchObject({ succeeded: false, httpCode: null });
    expect(result.error).toMatch(/not a public address/);
    expect(hits).toEqual([]);
  });

  it('in production refuses IPv6 spellings that embed a private IPv4 address, at delivery time', async () => {
    const sender = new DeliverySender(false);
    for (const host of ['[::127.0.0.1]', '[::ffff:0:7f00:1]', '[64:ff9b:1::7f00:1]', '[2002:7f00:1::]']) {
      const result = await sender.send(`http://${host}:${port}/x`, {}, Buffer.from('{}'));
      expect([host, result.succeeded, result.error]).toEqual([
        host,
        false,
        expect.stringMatching(/not a public address/),
      ]);
    }
    sender.close();
    expect(hits).toEqual([]);
  });

  it('treats a redirect as a failure and does not follow it; keeps 2 KB of the answer', async () => {
    const sender = new DeliverySender(true);
    const redirected = await sender.send(`http://127.0.0.1:${port}/redirect`, {}, Buffer.from('{}'));
    const ok = await sender.send(`http://127.0.0.1:${port}/ok`, {}, Buffer.from('{}'));
    sender.close();
    expect(redirected).toMatchObject({ succeeded: false, httpCode: 302 });
    expect(hits).toEqual(['/redirect', '/ok']);
    expect(ok).toMatchObject({ succeeded: true, httpCode: 200 });
    expect(ok.response).toHaveLength(2048);
  });
});
