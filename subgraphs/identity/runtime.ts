import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../kit/clock.js';
import type { DatabaseWaits } from '../../kit/config.js';
import type { SubgraphRuntime } from '../../kit/graphql/subgraph-runtime.js';
import { listenForPrincipalInvalidations } from '../../kit/database/principal-invalidations.js';
import type { LeakedTokenRevoker } from '../../kit/leaked-tokens.js';
import { OwnerNoticeRelay } from '../../kit/email/owner-notices.js';
import type { Logger } from '../../kit/logger.js';
import { InProcessLeakedTokenRevoker } from './tokens/leaked-token.revoker.js';
import { PrincipalCache } from '../../kit/principal-cache.js';
import { TokenPrincipalResolver } from './auth/principal-resolver.js';
import type { IdentityContext } from './context.js';
import { openIdentityOrm } from './orm.js';
import type { OrganizationDirectory } from './organizations/organization-directory.contract.js';
import { InProcessOrganizationDirectory } from './organizations/organization-directory.provider.js';
import { buildIdentitySchema, IDENTITY_SUBGRAPH } from './schema.js';
import { createIdentityServices, type IdentityServices } from './services.js';

// What composition roots wire around the runtime (embedded/: the in-process OAuth provider; cli/: the
// operator actions over an opened database), so that they import nothing else of identity.
export { IdentityAdmin } from './admin.js';
export { InProcessOAuth2Provider } from './oauth2/oauth2.provider.js';
export { InProcessWebIdentity } from './web/web.provider.js';
export { InProcessOrganizationDirectory } from './organizations/organization-directory.provider.js';
export { createIdentityServices, type IdentityServices, openIdentityOrm };

export interface IdentityRuntime extends SubgraphRuntime<IdentityContext> {
  orm: MikroORM;
  services: IdentityServices;
  principals: TokenPrincipalResolver;
  /** Revokes leaked tokens of every family identity stores (secret scanning, kit/leaked-tokens.ts). */
  leakedTokens: LeakedTokenRevoker;
  /** Public profiles and portal settings of organizations (billing's e-mails and portal rules, the portal pages). */
  organizations: OrganizationDirectory;
  /**
   * Hands the owner e-mails identity owes (`identity.owner_notices`: leaked tokens revoked) to billing's
   * outbox; the composition root starts it with billing's mailbox (in-process, or signed RPC at BILLING_URL).
   */
  ownerNotices: OwnerNoticeRelay;
  clock: Clock;
  close(): Promise<void>;
}

/** Connects, migrates and builds the identity subgraph for one environment's database. */
export async function startIdentity(options: {
  databaseUrl: string;
  secret: string;
  clock: Clock;
  poolMax?: number;
  /** The bounds of every database wait (kit/database/waits.ts); the defaults when absent. */
  databaseWaits?: DatabaseWaits;
  logger?: Logger;
}): Promise<IdentityRuntime> {
  const orm = await openIdentityOrm(options.databaseUrl, options.poolMax, options.databaseWaits);
  const schema = await buildIdentitySchema();
  const cache = new PrincipalCache();
  // Revocations made by any process on this database (another replica, the CLI) evict here at once.
  let invalidations: Awaited<ReturnType<typeof listenForPrincipalInvalidations>>;
  try {
    invalidations = await listenForPrincipalInvalidations(options.databaseUrl, cache);
  } catch (error) {
    await orm.close();
    throw error;
  }
  const services = createIdentityServices(options.secret, cache);
  const principals = new TokenPrincipalResolver(orm, options.secret, options.clock, cache);
  const ownerNotices = new OwnerNoticeRelay(orm, 'identity', options.logger);
  try {
    // Notices written by any process wake it; it runs once the composition root gives it billing's mailbox.
    await ownerNotices.listen(options.databaseUrl);
  } catch (error) {
    await invalidations.close();
    await orm.close();
    throw error;
  }
  return {
    name: IDENTITY_SUBGRAPH,
    schema,
    orm,
    services,
    clock: options.clock,
    principals,
    leakedTokens: new InProcessLeakedTokenRevoker(orm, options.secret, options.clock, cache, ownerNotices),
    ownerNotices,
    organizations: new InProcessOrganizationDirectory(orm),
    // The fork is made on first use of `em`: the lists and gets read through `reader` and need none.
    createContext: (principal, requestId) => {
      let em: EntityManager | undefined;
      return {
        get em() {
          em ??= orm.em.fork();
          return em;
        },
        get reader() {
          return em ?? orm.em;
        },
        principal,
        clock: options.clock,
        requestId,
        services,
      };
    },
    close: async () => {
      await ownerNotices.stop();
      await invalidations.close();
      await principals.settle();
      await orm.close();
    },
  };
}
