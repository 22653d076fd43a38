import type { EntityManager } from '@mikro-orm/postgresql';

/** A message of the outbox as the sender reads it. */
export interface OutgoingRow {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: string;
}

/** The new message: `pending`, no attempt yet. */
export interface NewOutgoingEmail {
  id: string;
  organizationId: string | null;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: Date;
}

/** The statements of billing's e-mail outbox (`billing.outgoing_emails`). */
export class OutgoingEmailRepository {
  constructor(private readonly em: EntityManager) {}

  /** Writes the message unless one with its id is there already (queueing by id is idempotent). */
  async insertUnlessQueued(email: NewOutgoingEmail): Promise<void> {
    await this.em.execute(
      `insert into billing.outgoing_emails (id, organization_id, kind, to_address, subject, text_body, html_body, status, attempts, created_at)
     values (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?) on conflict (id) do nothing`,
      [email.id, email.organizationId, email.kind, email.to, email.subject, email.text, email.html, email.createdAt],
    );
  }

  async find(id: string): Promise<OutgoingRow | undefined> {
    const [row] = await this.em.execute<OutgoingRow[]>(
      'select id, to_address, subject, text_body, html_body, status from billing.outgoing_emails where id = ?',
      [id],
    );
    return row;
  }

  /** One more attempt failed: its error is kept, and the message is `failed` when it was the last. */
  async recordFailedAttempt(id: string, error: string, final: boolean, transport: string): Promise<void> {
    await this.em.execute(
      'update billing.outgoing_emails set attempts = attempts + 1, last_error = ?, status = ?, transport = ? where id = ?',
      [error, final ? 'failed' : 'pending', transport, id],
    );
  }

  async recordSent(id: string, at: Date, transport: string): Promise<void> {
    await this.em.execute(
      `update billing.outgoing_emails set attempts = attempts + 1, status = 'sent', sent_at = ?, last_error = null, transport = ? where id = ?`,
      [at, transport, id],
    );
  }

  /** Blanks the message's bodies (recipient, subject and status stay). */
  async redactBodies(id: string): Promise<void> {
    await this.em.execute(
      `update billing.outgoing_emails set text_body = '[redacted]', html_body = null where id = ?`,
      [id],
    );
  }
}
