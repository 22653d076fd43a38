import type { EntityManager } from '@mikro-orm/postgresql';

/** A message of the outbox as the sender reads it. */
export interface OutgoingRow {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  from_name: string | null;
  organization_id: string | null;
  status: string;
}

/** A message as the sandbox's mail page lists it. */
export interface OutboxListRow {
  id: string;
  kind: string;
  to_address: string;
  from_name: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: string;
  status_reason: string | null;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
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
  fromName: string | null;
  createdAt: Date;
}

/** The statements of billing's e-mail outbox (`billing.outgoing_emails`). */
export class OutgoingEmailRepository {
  constructor(private readonly em: EntityManager) {}

  /** Writes the message unless one with its id is there already (queueing by id is idempotent). */
  async insertUnlessQueued(email: NewOutgoingEmail): Promise<void> {
    await this.em.execute(
      `insert into billing.outgoing_emails (id, organization_id, kind, to_address, subject, text_body, html_body, from_name, status, attempts, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?) on conflict (id) do nothing`,
      [
        email.id,
        email.organizationId,
        email.kind,
        email.to,
        email.subject,
        email.text,
        email.html,
        email.fromName,
        email.createdAt,
      ],
    );
  }

  async find(id: string): Promise<OutgoingRow | undefined> {
    const [row] = await this.em.execute<OutgoingRow[]>(
      'select id, to_address, subject, text_body, html_body, from_name, organization_id, status from billing.outgoing_emails where id = ?',
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

  /** The sandbox kept the message: it is readable in the service, and `reason` says why it was not sent. */
  async recordNotDelivered(id: string, reason: string, transport: string): Promise<void> {
    await this.em.execute(
      `update billing.outgoing_emails set attempts = attempts + 1, status = 'not_delivered', status_reason = ?, transport = ? where id = ?`,
      [reason, transport, id],
    );
  }

  /** An organization's most recent messages, newest first (the sandbox's mail page). */
  async recentOf(organizationId: string, limit: number): Promise<OutboxListRow[]> {
    return this.em.execute<OutboxListRow[]>(
      `select id, kind, to_address, from_name, subject, text_body, html_body, status, status_reason, last_error, created_at, sent_at
         from billing.outgoing_emails where organization_id = ? order by created_at desc, id limit ?`,
      [organizationId, limit],
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
