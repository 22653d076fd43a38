import { createHash } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import type { OwnerEmail, OwnerMailbox } from '../../../kit/email/owner-mailbox.js';
import type { OrganizationDirectory } from '../../identity/contract.js';
import type { JobRunner } from '../jobs/job-queue.js';
import { queueEmail, sendSoon } from './email-outbox.js';

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
            },
            now,
          ),
        );
    });
    for (const key of keys) sendSoon(this.jobs, key);
    return { recipients: addresses.length };
  }
}

/** A UUID-shaped digest of the notification key and the address (stable across hand-overs). */
function idOf(key: string, address: string): string {
  const hex = createHash('sha256').update(`${key}\n${address.toLowerCase()}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
