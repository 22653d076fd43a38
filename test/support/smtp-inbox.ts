import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as the SMTP server received it, parsed as a mail client would. */
export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO). */
  rcptTo: string[];
  mail: ParsedMail;
}

/**
 * A real SMTP server on a loopback port (smtp-server), for tests that send through the service's own
 * SmtpMailer (nodemailer): every accepted message is parsed with mailparser into `messages`. No TLS and
 * no authentication (a local relay). `refuse` makes it answer 451 to every message (a failing server).
 */
export class SmtpInbox {
  readonly messages: ReceivedMail[] = [];
  refuse = false;
  private readonly server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        if (this.refuse) {
          stream.resume();
          const error = Object.assign(new Error('try again later'), { responseCode: 451 });
          stream.on('end', () => callback(error));
          return;
        }
        simpleParser(stream)
          .then(mail => {
            this.messages.push({ rcptTo: session.envelope.rcptTo.map(r => r.address), mail });
            callback();
          })
          .catch(callback);
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The messages sent to this address so far. */
  to(address: string): ReceivedMail[] {
    return this.messages.filter(m => m.rcptTo.some(r => r.toLowerCase() === address.toLowerCase()));
  }

  close(): Promise<void> {
    return new Promise(resolve => this.server.close(() => resolve()));
  }
}
