import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import { InvalidToken } from '../../../kit/errors.js';
import { bearerOf, type Principal, type PrincipalResolver } from '../../../kit/principal.js';
import { PrincipalCache, principalLookup } from '../../../kit/principal-cache.js';
import { hashToken, hasValidChecksum, TOKEN_PREFIXES } from '../../../kit/tokens.js';
import { CustomerSessionRepository } from '../customer-sessions/customer-session.repository.js';

/** What a customer session may do: the Customer Portal API, nothing else (docs/polar/auth.md#bearer-resolution). */
export const CUSTOMER_PORTAL_SCOPES: readonly string[] = Object.freeze([
  'customer_portal:read',
  'customer_portal:write',
]);

/**
 * `polar_cst_` bearer → Customer principal. Billing owns customer sessions, so it resolves them; the
 * edge routes these tokens here by prefix (kit/composite-principal-resolver.ts). An unknown, expired
 * or malformed token, or one whose customer was deleted, is `invalid_token`.
 */
export class CustomerSessionPrincipalResolver implements PrincipalResolver {
  constructor(
    private readonly orm: MikroORM,
    private readonly secret: string,
    private readonly clock: Clock,
    /** Kept in step with deletions by the billing runtime's listener (kit/database/principal-invalidations.ts). */
    private readonly cache = new PrincipalCache(),
  ) {}

  async resolve(authorization: string | undefined): Promise<Principal> {
    const token = bearerOf(authorization);
    if (!token || !hasValidChecksum(token, TOKEN_PREFIXES.customerSession)) throw new InvalidToken();
    const hash = hashToken(token, this.secret);
    const now = this.clock.now();
    const cached = this.cache.get(hash, now.getTime());
    if (cached) return cached;
    return principalLookup(() => this.lookUp(hash, now));
  }

  /** The principal of a customer session the cache does not hold, from its row; cached once found. */
  private async lookUp(hash: string, now: Date): Promise<Principal> {
    const sessions = new CustomerSessionRepository(this.orm.em.fork());
    const session = await sessions.findByTokenHash(hash);
    if (!session?.isLive(now)) throw new InvalidToken();
    const customer = await sessions.findLiveCustomerIdentity(session.customerId);
    if (!customer) throw new InvalidToken();
    const principal: Principal = {
      subject: 'customer',
      subjectId: customer.id,
      credential: 'customer_session',
      scopes: [...CUSTOMER_PORTAL_SCOPES],
      organizationIds: [customer.organizationId],
      tokenId: session.id,
    };
    this.cache.set(hash, principal, now.getTime(), session.expiresAt);
    return principal;
  }
}
