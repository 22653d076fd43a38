import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
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
import { generateToken, hashToken, TOKEN_PREFIXES } from '../../../kit/tokens.js';
import { OAuth2AuthorizationCodeRepository } from '../oauth2/oauth2-authorization-code.repository.js';
import type { OAuth2Client } from '../oauth2/oauth2-client.entity.js';
import { OAuth2ClientRepository } from '../oauth2/oauth2-client.repository.js';
import { OAuth2TokenRepository } from '../oauth2/oauth2-token.repository.js';
import { OrganizationAccessTokenRepository } from './organization-access-token.repository.js';
import { PersonalAccessTokenRepository } from './personal-access-token.repository.js';
import { UserSessionRepository } from './user-session.repository.js';

/**
 * Identity's side of secret-scanning revocation (kit/leaked-tokens.ts). The token is looked up by its
 * HMAC in every family identity stores, whatever its prefix or the reported type (GitHub's type is a
 * guess from the pattern). Each revocation is one conditional UPDATE (`… where still live`), so of two
 * concurrent reports of one token exactly one says it revoked it; the owner's e-mail is written in the
 * same transaction.
 */
export class InProcessLeakedTokenRevoker implements LeakedTokenRevoker {
  constructor(
    private readonly orm: MikroORM,
    private readonly secret: string,
    private readonly clock: Clock,
    private readonly cache: PrincipalCache,
    /** Hands the owners' e-mails to billing's outbox (started by the composition root). */
    private readonly notices: OwnerNoticeRelay,
  ) {}

  async revokeLeaked(token: string, report: LeakReport): Promise<LeakedTokenOutcome | null> {
    const hash = hashToken(token, this.secret);
    const now = this.clock.now();
    // The revocation and the owner's e-mail commit together (owner-notices.ts): a process that dies
    // after the commit still owes the e-mail, and its relay sends it.
    const found = await this.orm.em.fork().transactional(async em => {
      const families = [
        () => this.organizationToken(em, hash, now),
        () => this.personalToken(em, hash, now),
        () => this.oauthToken(em, hash, now),
        () => this.userSession(em, hash, now),
        () => this.clientSecret(em, hash),
        () => this.registrationToken(em, hash),
        () => this.authorizationCode(em, hash, now),
      ];
      for (const family of families) {
        const result = await family();
        if (result === undefined) continue;
        const owner = result && ownerToNotify(result.revocation);
        const notice = owner ? leakNotice(result.revocation, owner, token, report) : null;
        if (notice) await recordOwnerNotice(em, 'identity', notice);
        return result && { ...result, noticeKey: notice?.key ?? null };
      }
      return null;
    });
    if (!found) return null;
    // After the commit, so that announce waits until this process's caches have dropped the rows.
    await this.cache.announce(this.orm.em.fork(), { tokenIds: found.tokenIds });
    faultPoint(LEAK_NOTICE_HANDOVER_FAULT);
    const emailed = found.noticeKey ? await this.notices.handOver(found.noticeKey) : 0;
    return { ...found.revocation, emailed };
  }

  // Each family answers undefined when the hash is not one of its rows (try the next), null when the
  // row exists but is no longer live (nothing to revoke), or what it revoked.

  private async organizationToken(em: EntityManager, hash: string, now: Date) {
    const tokens = new OrganizationAccessTokenRepository(em);
    const row = await tokens.findByTokenHash(hash);
    if (!row) return undefined;
    if (!row.isLive(now) || !(await tokens.revoke(row.id, now))) return null;
    return revoked(
      {
        ...revocation('organization_access_token', row.id, 'organization', row.organizationId),
        label: row.comment || null,
        organizationId: row.organizationId,
      },
      [row.id],
    );
  }

  private async personalToken(em: EntityManager, hash: string, now: Date) {
    const tokens = new PersonalAccessTokenRepository(em);
    const row = await tokens.findByTokenHash(hash);
    if (!row) return undefined;
    if (!row.isLive(now) || !(await tokens.revoke(row.id, now))) return null;
    return revoked({ ...revocation('personal_access_token', row.id, 'user', row.userId), label: row.comment || null }, [
      row.id,
    ]);
  }

  private async userSession(em: EntityManager, hash: string, now: Date) {
    const sessions = new UserSessionRepository(em);
    const row = await sessions.findByTokenHash(hash);
    if (!row) return undefined;
    if (!row.isLive(now) || !(await sessions.end(row.id, now))) return null;
    return revoked(revocation('user_session', row.id, 'user', row.userId), [row.id]);
  }

  /**
   * A leaked access or refresh token ends its whole grant (every token issued from the same code), as
   * RFC 7009 does for a refresh token: whoever holds one of them could otherwise mint or keep others.
   */
  private async oauthToken(em: EntityManager, hash: string, now: Date) {
    const tokens = new OAuth2TokenRepository(em);
    const byAccess = await tokens.findByAccessTokenHash(hash);
    const row = byAccess ?? (await tokens.findByRefreshTokenHash(hash));
    if (!row) return undefined;
    if (!(byAccess ? row.isAccessLive(now) : row.isRefreshLive(now))) return null;
    const { tokenIds, accessEnded, refreshEnded } = await tokens.endFamily(row.familyId, now);
    // A concurrent report of the same grant got there first: it answers true_positive, this one not.
    if (!(byAccess ? accessEnded : refreshEnded)) return null;
    // Whom the token spoke for is told (Polar's rule): the user, or the organization it was granted for.
    const forOrganization = row.subType === 'organization' && row.organizationId;
    return revoked(
      {
        ...revocation(
          byAccess ? 'oauth2_access_token' : 'oauth2_refresh_token',
          row.id,
          forOrganization ? 'organization' : 'user',
          forOrganization ? (row.organizationId as string) : row.userId,
        ),
        label: await new OAuth2ClientRepository(em).nameOf(row.oauth2ClientId),
        organizationId: row.organizationId,
      },
      tokenIds,
    );
  }

  /**
   * A leaked client secret or registration token is replaced by a fresh random one that nobody is
   * told (Polar rotates it too): the leaked value stops working at once. Tokens already issued to the
   * client stay valid; the owner registers a new client (or deletes this one) to take over again.
   */
  private async clientSecret(em: EntityManager, hash: string) {
    const clients = new OAuth2ClientRepository(em);
    const row = await clients.findLiveBySecretHash(hash);
    if (!row) return undefined;
    const replacement = hashToken(generateToken(TOKEN_PREFIXES.clientSecret), this.secret);
    if (!(await clients.replaceSecretHash(row.id, hash, replacement))) return null;
    return revoked({ ...revocation('oauth2_client_secret', row.id, ...clientOwner(row)), label: row.clientName });
  }

  private async registrationToken(em: EntityManager, hash: string) {
    const clients = new OAuth2ClientRepository(em);
    const row = await clients.findLiveByRegistrationTokenHash(hash);
    if (!row) return undefined;
    const replacement = hashToken(generateToken(TOKEN_PREFIXES.clientRegistrationToken), this.secret);
    if (!(await clients.replaceRegistrationTokenHash(row.id, hash, replacement))) return null;
    return revoked({
      ...revocation('oauth2_client_registration_token', row.id, ...clientOwner(row)),
      label: row.clientName,
    });
  }

  /** A leaked code is marked consumed: redeeming it then fails (and, as any replay, ends its grant). */
  private async authorizationCode(em: EntityManager, hash: string, now: Date) {
    const codes = new OAuth2AuthorizationCodeRepository(em);
    const row = await codes.findByCodeHash(hash);
    if (!row) return undefined;
    if (row.expiresAt <= now || !(await codes.consume(row.id, now))) return null;
    return revoked({
      ...revocation('oauth2_authorization_code', row.id, 'user', row.userId),
      label: await new OAuth2ClientRepository(em).nameOf(row.oauth2ClientId),
    });
  }
}

/** What a family revoked, and the token rows every process must drop (none for clients and codes). */
interface Revoked {
  revocation: LeakedTokenRevocation;
  tokenIds: string[];
}

function revoked(revocation: LeakedTokenRevocation, tokenIds: string[] = []): Revoked {
  return { revocation, tokenIds };
}

function revocation(
  kind: LeakedTokenRevocation['kind'],
  id: string,
  ownerType: LeakedTokenRevocation['owner']['type'],
  ownerId: string,
): LeakedTokenRevocation {
  return { kind, id, owner: { type: ownerType, id: ownerId } };
}

/** Whom to tell about a client's credential: its owner, or (a client registered anonymously) the client itself. */
function clientOwner(client: OAuth2Client): [LeakedTokenRevocation['owner']['type'], string] {
  return client.ownerUserId ? ['user', client.ownerUserId] : ['oauth2_client', client.id];
}
