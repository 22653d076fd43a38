import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import { leakNotice, ownerToNotify } from '../../../kit/email/leak-notice.js';
import { type OwnerNoticeRelay, recordOwnerNotice } from '../../../kit/email/owner-notices.js';
import { faultPoint } from '../../../kit/fault-injection.js';
import {
  LEAK_NOTICE_HANDOVER_FAULT,
  type LeakedTokenOutcome,
  type LeakedTokenRevocation,
  type LeakedTokenRevoker,
  type LeakReport,
} from '../../../kit/leaked-tokens.js';
import type { PrincipalCache } from '../../../kit/principal-cache.js';
import { hashToken } from '../../../kit/tokens.js';
import { CustomerSessionRepository } from './customer-session.repository.js';

/**
 * Billing's side of secret-scanning revocation (kit/leaked-tokens.ts): a leaked customer session token
 * is deleted (as Polar does) when it is still live, the seller's e-mail is written in the same
 * transaction (`billing.owner_notices`), and every process drops its cached principal.
 */
export class InProcessLeakedCustomerSessionRevoker implements LeakedTokenRevoker {
  constructor(
    private readonly orm: MikroORM,
    private readonly secret: string,
    private readonly clock: Clock,
    /** The cache of this environment's CustomerSessionPrincipalResolver. */
    private readonly cache: PrincipalCache,
    /** Hands the e-mail to billing's own outbox. */
    private readonly notices: OwnerNoticeRelay,
  ) {}

  async revokeLeaked(token: string, report: LeakReport): Promise<LeakedTokenOutcome | null> {
    const found = await this.orm.em.fork().transactional(async em => {
      const sessions = new CustomerSessionRepository(em);
      const session = await sessions.findByTokenHash(hashToken(token, this.secret));
      if (!session?.isLive(this.clock.now())) return null;
      if (!(await sessions.delete(session.id))) return null;
      const revocation: LeakedTokenRevocation = {
        kind: 'customer_session',
        id: session.id,
        owner: { type: 'customer', id: session.customerId },
        label: null,
        organizationId: session.organizationId,
      };
      const owner = ownerToNotify(revocation);
      const notice = owner ? leakNotice(revocation, owner, token, report) : null;
      if (notice) await recordOwnerNotice(em, 'billing', notice);
      return { revocation, noticeKey: notice?.key ?? null };
    });
    if (!found) return null;
    // After the commit, so that announce waits until this process's caches have dropped the session.
    await this.cache.announce(this.orm.em.fork(), { tokenIds: [found.revocation.id] });
    faultPoint(LEAK_NOTICE_HANDOVER_FAULT);
    const emailed = found.noticeKey ? await this.notices.handOver(found.noticeKey) : 0;
    return { ...found.revocation, emailed };
  }
}
