import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import { faultPoint } from '../../../kit/fault-injection.js';
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
/** The crash point between the commit that queued a message and its hand-over to SMTP (kit/fault-injection.ts). */
export const EMAIL_BEFORE_SEND_FAULT = 'email.before-send';

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

/**
 * Writes the message and its job into the caller's transaction; answers the job's key (for `runNow`).
 * `sendAt`: when the job is due by the job runner's clock (default `now`); a change stamped by a sandbox
 * clock ahead of the wall gives its own instant as `now` and the runner's present as `sendAt`.
 */
export async function queueEmail(em: EntityManager, email: QueuedEmail, now: Date, sendAt = now): Promise<string> {
  const id = email.id ?? randomUUID();
  await new OutgoingEmailRepository(em).insertUnlessQueued({
    id,
    organizationId: email.organizationId ?? null,
    kind: email.kind,
    to: email.to,
    subject: email.subject,
    text: email.text,
    html: email.html ?? null,
    fromName: email.fromName ?? null,
    createdAt: now,
  });
  const key = `email:${id}`;
  await enqueueJob(em, { kind: EMAIL_SEND_JOB, key, payload: { id }, runAt: sendAt, maxAttempts: 8 });
  if (email.redactAt)
    await enqueueJob(em, { kind: EMAIL_REDACT_JOB, key: `email-redact:${id}`, payload: { id }, runAt: email.redactAt });
  return key;
}

/**
 * Who may receive mail in the sandbox (docs/email.md#sandbox): the organization's members, `+alias`
 * included. Null: every address (production).
 */
export type SandboxRecipients = ((organizationId: string) => Promise<string[]>) | null;

/**
 * The `email.send` handler: sends a pending message once, counts the attempt, keeps the last error. In
 * the sandbox a message to someone who is not a member of its organization is kept, not sent.
 */
export function emailSender(deps: {
  orm: MikroORM;
  clock: Clock;
  mailer: Mailer;
  sandboxRecipients?: SandboxRecipients;
}): JobHandler {
  return async (payload, job) => {
    const emails = new OutgoingEmailRepository(deps.orm.em.fork());
    const row = await emails.find(String(payload.id));
    if (!row) return;
    if (row.status !== 'pending') return;
    if (deps.sandboxRecipients && row.organization_id) {
      const members = (await deps.sandboxRecipients(row.organization_id)).map(mailboxOf);
      if (!members.includes(mailboxOf(row.to_address))) {
        const reason = 'sandbox: e-mail is only delivered to members of the organization';
        return emails.recordNotDelivered(row.id, reason, deps.mailer.kind);
      }
    }
    faultPoint(EMAIL_BEFORE_SEND_FAULT);
    try {
      await deps.mailer.send({
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        ...(row.from_name ? { fromName: row.from_name } : {}),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final = job.attempts >= job.max_attempts;
      await emails.recordFailedAttempt(row.id, message.slice(0, 2000), final, deps.mailer.kind);
      throw error;
    }
    await emails.recordSent(row.id, deps.clock.now(), deps.mailer.kind);
  };
}

/** `Ann+Test@X.com` → `ann@x.com`: a member's `+alias` addresses are the member's. */
function mailboxOf(address: string): string {
  const [local, domain = ''] = address.trim().toLowerCase().split('@');
  return `${local.split('+')[0]}@${domain}`;
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

/**
 * A UUID-shaped digest of a message's key: a producer that names its message by what caused it (a
 * notification and an address, an event) queues it once however often it hands it over.
 */
export function outboxIdOf(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
