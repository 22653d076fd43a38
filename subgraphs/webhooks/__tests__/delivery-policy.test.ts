import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret } from '../endpoints/webhook-secret.js';
import { POLAR_DELIVERY_POLICY, retryDelayMs } from '../worker/delivery-policy.js';
import { DeliverySender } from '../worker/delivery-sender.js';
import { signatureHeader, signerFor } from '../worker/delivery-signature.js';
import { ForbiddenTarget, guardedLookup, isPublicAddress } from '../worker/target-policy.js';

describe('signature (polar-api.md §6, reliability.md §10 case 1)', () => {
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
    // validateEvent(body, headers, secret) is `new Webhook(base64(utf8(secret))).verify` (polar-api.md §6).
    new Webhook(Buffer.from(secret).toString('base64')).verify(body, {
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': header,
    });
  });
});

describe('retry ladder (reliability.md §1.3)', () => {
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

describe('target policy (reliability.md §10 case 8)', () => {
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
