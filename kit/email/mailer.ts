import { createTransport, type Transporter } from 'nodemailer';
import type { Logger } from '../logger.js';

/**
 * Sending one e-mail. The service never sends from a request: callers queue a message in their
 * subgraph's outbox (billing: `billing.outgoing_emails`, emails/email-outbox.ts) in the transaction of
 * the change, and a durable job hands it to the `Mailer`. Customers' sign-in codes, and owner
 * notifications (webhook endpoint disabled, leaked token revoked) queued from other subgraphs through
 * kit/email/owner-mailbox.ts, all go through billing's outbox and this seam.
 */
export interface EmailMessage {
  to: string;
  subject: string;
  /** Plain text body (always sent: every mail client can read it). */
  text: string;
  /** Optional HTML alternative. */
  html?: string | null;
  /** The sender's display name (a customer e-mail is in its organization's name); the address stays `EMAIL_FROM`'s. */
  fromName?: string | null;
}

export interface Mailer {
  /** Which transport this is (`smtp` or `log`), for the start-up banner and the outbox rows. */
  readonly kind: 'smtp' | 'log';
  /** Resolves once the transport accepted the message; throws when it refused (the job retries). */
  send(message: EmailMessage): Promise<void>;
}

/** SMTP through nodemailer (`SMTP_URL`, e.g. `smtp://user:pass@host:587`, `smtps://…:465`). */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp';
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = createTransport(url);
  }

  async send(message: EmailMessage): Promise<void> {
    await this.transport.sendMail({
      from: message.fromName ? { name: message.fromName, address: addressOf(this.from) } : this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
    });
  }

  close(): void {
    this.transport.close();
  }
}

/** The address of `Name <address>` (or the whole text when it is a bare address). */
function addressOf(from: string): string {
  return /<([^>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
}

/**
 * Development without SMTP: the message is written to the log (info), body included, so a developer
 * can read a sign-in code from the console. The outbox row stays readable for tests either way.
 */
export class LogMailer implements Mailer {
  readonly kind = 'log';
  constructor(private readonly logger: Logger | null) {}

  async send(message: EmailMessage): Promise<void> {
    this.logger?.info(
      { email: { from: message.fromName ?? null, to: message.to, subject: message.subject, text: message.text } },
      'e-mail (not sent: SMTP_URL is not set)',
    );
  }
}

/** The default sender when `EMAIL_FROM` is not set. */
export const DEFAULT_EMAIL_FROM = 'Billing <no-reply@localhost>';

/** SMTP when `SMTP_URL` is configured, the log otherwise. */
export function mailerFromConfig(config: { SMTP_URL?: string; EMAIL_FROM?: string }, logger: Logger | null): Mailer {
  return config.SMTP_URL
    ? new SmtpMailer(config.SMTP_URL, config.EMAIL_FROM ?? DEFAULT_EMAIL_FROM)
    : new LogMailer(logger);
}
