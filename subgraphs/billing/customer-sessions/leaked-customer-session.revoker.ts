import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import type { LeakedTokenRevocation, LeakedTokenRevoker } from '../../../kit/leaked-tokens.js';
import type { PrincipalCache } from '../../../kit/principal-cache.js';
import { hashToken } from '../../../kit/tokens.js';
import { CustomerSession } from './customer-session.entity.js';

/**
 * Billing's side of secret-scanning revocation (kit/leaked-tokens.ts): a leaked customer session token
 * is deleted (as Polar does) when it is still live, and every process drops its cached principal.
 */
export class InProcessLeakedCustomerSessionRevoker implements LeakedTokenRevoker {
  constructor(
    private readonly orm: MikroORM,
    private readonly secret: string,
    private readonly clock: Clock,
    /** The cache of this environment's CustomerSessionPrincipalResolver. */
    private readonly cache: PrincipalCache,
  ) {}

  async revokeLeaked(token: string): Promise<LeakedTokenRevocation | null> {
    const em = this.orm.em.fork();
    const session = await em.findOne(CustomerSession, { tokenHash: hashToken(token, this.secret) });
    if (!session?.isLive(this.clock.now())) return null;
    if (!(await em.nativeDelete(CustomerSession, { id: session.id }))) return null;
    await this.cache.announce(em, { tokenIds: [session.id] });
    return {
      kind: 'customer_session',
      id: session.id,
      owner: { type: 'customer', id: session.customerId },
      label: null,
      organizationId: session.organizationId,
    };
  }
}
