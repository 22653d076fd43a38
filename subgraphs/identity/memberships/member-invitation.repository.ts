import type { EntityManager } from '@mikro-orm/postgresql';

/** A pending invitation as the pages show it (the token is never read back: only its HMAC is stored). */
export interface PendingInvitation {
  email: string;
  role: string;
  organizationId: string;
  createdAt: string;
  expiresAt: string;
}

interface Row {
  email: string;
  role: string;
  organization_id: string;
  created_at: Date;
  expires_at: Date;
}

const pending = (r: Row): PendingInvitation => ({
  email: r.email,
  role: r.role,
  organizationId: r.organization_id,
  createdAt: new Date(r.created_at).toISOString(),
  expiresAt: new Date(r.expires_at).toISOString(),
});

/**
 * `identity.member_invitations` (docs/dashboard.md#members): one pending invitation per organization and
 * address; inviting the address again replaces its role, token and expiry (the earlier link stops working).
 */
export class MemberInvitationRepository {
  constructor(private readonly em: EntityManager) {}

  async upsert(invitation: {
    organizationId: string;
    email: string;
    role: string;
    invitedBy: string | null;
    tokenHash: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void> {
    await this.em.execute(
      `insert into identity.member_invitations
         (id, organization_id, email, role, invited_by, token_hash, created_at, expires_at)
       values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?)
       on conflict (organization_id, email) do update
         set role = excluded.role, invited_by = excluded.invited_by, token_hash = excluded.token_hash,
             created_at = excluded.created_at, expires_at = excluded.expires_at`,
      [
        invitation.organizationId,
        invitation.email,
        invitation.role,
        invitation.invitedBy,
        invitation.tokenHash,
        invitation.createdAt,
        invitation.expiresAt,
      ],
    );
  }

  /** The live invitation of a link's token, or null (unknown, replaced or expired). */
  async live(tokenHash: string, now: Date): Promise<PendingInvitation | null> {
    const rows = await this.em.execute<Row[]>(
      `select email, role, organization_id, created_at, expires_at from identity.member_invitations
        where token_hash = ? and expires_at > ?`,
      [tokenHash, now],
    );
    return rows[0] ? pending(rows[0]) : null;
  }

  /**
   * Spends a link's token: deletes its live invitation and answers it, or null. One conditional delete, so
   * two sign-ups with one link at once cannot both accept it.
   */
  async take(tokenHash: string, now: Date): Promise<PendingInvitation | null> {
    const rows = await this.em.execute<Row[]>(
      `delete from identity.member_invitations where token_hash = ? and expires_at > ?
        returning email, role, organization_id, created_at, expires_at`,
      [tokenHash, now],
    );
    return rows[0] ? pending(rows[0]) : null;
  }

  /** The organization's invitations not yet accepted nor expired, newest first (the Members page). */
  async pendingOf(organizationId: string, now: Date): Promise<PendingInvitation[]> {
    const rows = await this.em.execute<Row[]>(
      `select email, role, organization_id, created_at, expires_at from identity.member_invitations
        where organization_id = ? and expires_at > ? order by created_at desc, email limit 100`,
      [organizationId, now],
    );
    return rows.map(pending);
  }
}
