import type { EntityManager } from '@mikro-orm/postgresql';
import { OrganizationAccessToken } from './organization-access-token.entity.js';

/**
 * Organization access tokens for principal resolution and changes (lists are the read model's,
 * organization-access-token.read.ts). Revoking one is a conditional soft delete.
 */
export class OrganizationAccessTokenRepository {
  constructor(private readonly em: EntityManager) {}

  /** Whatever its state (principal resolution decides with `isLive`, and so does a leak report). */
  findByTokenHash(tokenHash: string): Promise<OrganizationAccessToken | null> {
    return this.em.findOne(OrganizationAccessToken, { tokenHash });
  }

  /** Not revoked (the CLI's `revoke`). */
  findUndeletedByTokenHash(tokenHash: string): Promise<OrganizationAccessToken | null> {
    return this.em.findOne(OrganizationAccessToken, { tokenHash, deletedAt: null });
  }

  /** Not revoked, in any organization: the caller checks that it may manage it. */
  findUndeleted(id: string): Promise<OrganizationAccessToken | null> {
    return this.em.findOne(OrganizationAccessToken, { id, deletedAt: null });
  }

  /** Not revoked, of this organization (the web page names both). */
  findUndeletedOfOrganization(id: string, organizationId: string): Promise<OrganizationAccessToken | null> {
    return this.em.findOne(OrganizationAccessToken, { id, organizationId, deletedAt: null });
  }

  touchLastUsed(id: string, now: Date): Promise<number> {
    return this.em.nativeUpdate(OrganizationAccessToken, { id }, { lastUsedAt: now });
  }

  /** Revokes the token if it is not revoked yet; the number of rows revoked (0 or 1). */
  revoke(id: string, now: Date): Promise<number> {
    return this.em.nativeUpdate(OrganizationAccessToken, { id, deletedAt: null }, { deletedAt: now });
  }
}
