import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import type { OwnerEmail, OwnerMailbox } from '../../../kit/email/owner-mailbox.js';
import type { OrganizationDirectory } from '../../identity/contract.js';
import type { JobRunner } from '../jobs/job-queue.js';
import { outboxIdOf, queueEmail, sendSoon } from './email-outbox.js';

/**
 * Owner notifications into billing's outbox (kit/email/owner-mailbox.ts). The addresses come from
 * identity's directory at queueing time; each message's row id is derived from the notification's key
 * and the address, so handing the same notification over again (a producer that crashed before it
 * recorded the hand-over) inserts nothing: one e-mail per address, however often it is queued.
 */
export class InProcessOwnerMailbox implements OwnerMailbox {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
    private readonly jobs: JobRunner | null,
    /** Null when billing runs without identity (then nobody can be addressed). */
    private readonly directory: OrganizationDirectory | null,
  ) {}

  async queue(email: OwnerEmail): Promise<{ recipients: number }> {
    const addresses = this.directory ? await this.directory.recipients(email.owner) : [];
    if (addresses.length === 0) return { recipients: 0 };
    const now = this.clock.now();
    const keys: string[] = [];
    await this.orm.em.fork().transactional(async em => {
      for (const to of addresses)
        keys.push(
          await queueEmail(
            em,
            {
              id: idOf(email.key, to),
              kind: email.kind,
              organizationId: email.organizationId,
              to,
              subject: email.subject,
              text: email.text,
              redactAt: email.redactAt ? new Date(email.redactAt) : undefined,
            },
            now,
          ),
        );
    });
    for (const key of keys) sendSoon(this.jobs, key);
    return { recipients: addresses.length };
  }
}

/** Stable across hand-overs: the notification key and the address. */
function idOf(key: string, address: string): string {
  return outboxIdOf(`${key}\n${address.toLowerCase()}`);
}
