import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../config.js';
import { LogMailer, mailerFromConfig, SmtpMailer } from '../mailer.js';

/**
 * The SMTP mailer against a minimal SMTP server on loopback (the outside system behind the Mailer
 * interface): what nodemailer sends is what a mail server receives.
 */
interface Received {
  auth: string | null;
  from: string;
  to: string[];
  data: string;
}

function fakeSmtp(): Promise<{ server: Server; port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((socket: Socket) => {
    let current: Received = { auth: null, from: '', to: [], data: '' };
    let inData = false;
    let buffer = '';
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', chunk => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(current);
            current = { auth: null, from: '', to: [], data: '' };
            socket.write('250 queued\r\n');
          } else current.data += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-fake\r\n250 AUTH PLAIN LOGIN\r\n');
        else if (verb === 'AUTH') {
          current.auth = line.slice(5);
          socket.write('235 ok\r\n');
        } else if (verb === 'MAIL') {
          current.from = line;
          socket.write('250 ok\r\n');
        } else if (verb === 'RCPT') {
          current.to.push(line);
          socket.write('250 ok\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
        } else socket.write('250 ok\r\n');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  return once(server, 'listening').then(() => ({
    server,
    port: (server.address() as AddressInfo).port,
    received,
  }));
}

describe('mailers', () => {
  it('SMTP: sends From, To, Subject and the text body, authenticating with the URL credentials', async () => {
    const smtp = await fakeSmtp();
    const mailer = new SmtpMailer(
      `smtp://mailer:s3cret@127.0.0.1:${smtp.port}/?ignoreTLS=true`,
      'Acme Billing <billing@acme.test>',
    );
    try {
      await mailer.send({
        to: 'buyer@example.com',
        subject: 'Access your Acme purchases',
        text: 'Your code:\n\nABC123',
      });
      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      expect(mail.from).toContain('<billing@acme.test>');
      expect(mail.to).toEqual(['RCPT TO:<buyer@example.com>']);
      expect(Buffer.from(mail.auth!.replace(/^PLAIN /, ''), 'base64').toString()).toBe('\0mailer\0s3cret');
      expect(mail.data).toContain('Subject: Access your Acme purchases');
      expect(mail.data).toContain('ABC123');
    } finally {
      mailer.close();
      smtp.server.close();
    }
  });

  it('SMTP: a refused message rejects (the outbox job retries it)', async () => {
    const mailer = new SmtpMailer('smtp://127.0.0.1:9/?connectionTimeout=500', 'x@example.com');
    await expect(mailer.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow();
    mailer.close();
  });

  it('chooses SMTP when SMTP_URL is set, the log otherwise; SMTP_URL must be smtp:// or smtps://', () => {
    expect(mailerFromConfig(loadConfig({ SMTP_URL: 'smtp://h:25' }), null).kind).toBe('smtp');
    expect(mailerFromConfig(loadConfig({}), null)).toBeInstanceOf(LogMailer);
    expect(() => loadConfig({ SMTP_URL: 'http://h' })).toThrow(/SMTP_URL/);
  });
});
