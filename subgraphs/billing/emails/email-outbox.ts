import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import type { EmailMessage, Mailer } from '../../../kit/email/mailer.js';
import { enqueueJob, type JobHandler, type JobRunner } from '../jobs/job-queue.js';
import { OutgoingEmailRepository } from './outgoing-email.repository.js';

/**
 * Billing's e-mail outbox (`billing.outgoing_emails`). `queueEmail` writes the message and its `email.send`
 * job in the caller's transaction, so a message exists exactly when the change that called for it
 * committed; the job hands it to the mailer (SMTP, or the log in development) and records the outcome.
 * Delivery is at least once: a worker that dies after the SMTP server accepted and before the row says
 * `sent` sends it again when the lease ends.
 */
export const EMAIL_SEND_JOB = 'email.send';
/** Blanks the bodies of a message that carried a secret (a sign-in code) once the secret has expired. */
export const EMAIL_REDACT_JOB = 'email.redact';

export interface QueuedEmail extends EmailMessage {
  /** What the message is (`customer_session_code`, owner notifications), for the operator and tests. */
  kind: string;
  organizationId?: string | null;
  /**
   * The body holds a secret that stops working at this time (a sign-in code): the bodies are blanked
   * then, so the outbox keeps no usable secret longer than the secret lives.
   */
  redactAt?: Date | null;
  /**
   * A given row id makes queueing idempotent (owner notifications derive it from their key): a second
   * call with the same id queues nothing.
   */
  id?: string;
}

/** Writes the message and its job into the caller's transaction; answers the job's key (for `runNow`). */
export async function queueEmail(em: EntityManager, email: QueuedEmail, now: Date): Promise<string> {
  const id = email.id ?? randomUUID();
  await new OutgoingEmailRepository(em).insertUnlessQueued({
    id,
    organizationId: email.organizationId ?? null,
    kind: email.kind,
    to: email.to,
    subject: email.subject,
    text: email.text,
    html: email.html ?? null,
    createdAt: now,
  });
  const key = `email:${id}`;
  await enqueueJob(em, { kind: EMAIL_SEND_JOB, key, payload: { id }, runAt: now, maxAttempts: 8 });
  if (email.redactAt)
    await enqueueJob(em, { kind: EMAIL_REDACT_JOB, key: `email-redact:${id}`, payload: { id }, runAt: email.redactAt });
  return key;
}

/** The `email.send` handler: sends a pending message once, counts the attempt, keeps the last error. */
export function emailSender(deps: { orm: MikroORM; clock: Clock; mailer: Mailer }): JobHandler {
  return async (payload, job) => {
    const emails = new OutgoingEmailRepository(deps.orm.em.fork());
    const row = await emails.find(String(payload.id));
    if (!row || row.status === 'sent') return;
    try {
      await deps.mailer.send({ to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final = job.attempts >= job.max_attempts;
      await emails.recordFailedAttempt(row.id, message.slice(0, 2000), final, deps.mailer.kind);
      throw error;
    }
    await emails.recordSent(row.id, deps.clock.now(), deps.mailer.kind);
  };
}

/** The `email.redact` handler: the message stays (recipient, subject, status), its bodies go. */
export function emailRedactor(deps: { orm: MikroORM }): JobHandler {
  return async payload => {
    await new OutgoingEmailRepository(deps.orm.em.fork()).redactBodies(String(payload.id));
  };
}

/** Sends a message queued by a commit that just happened, without waiting for the worker's next poll. */
export function sendSoon(jobs: JobRunner | null, key: string): void {
  // NOTE: a failure here is the job's own retry to handle; the request that queued it has its answer.
  jobs?.runNow(key).catch(() => undefined);
}
