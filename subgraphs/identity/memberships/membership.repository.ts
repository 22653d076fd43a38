import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { Membership, MemberRole } from './membership.entity.js';

/** The ids of the organizations a user is a member of (principal resolution, OAuth grants and tokens). */
export async function memberOrganizationIds(em: EntityManager, userId: string): Promise<string[]> {
  const rows = await em.find(Membership, { userId }, { fields: ['organizationId'] });
  return rows.map(m => m.organizationId);
}

/** A user's memberships with their role (the web pages' organization list). */
export function memberRolesOf(
  em: EntityManager,
  userId: string,
): Promise<Pick<Membership, 'organizationId' | 'role'>[]> {
  return em.find(Membership, { userId }, { fields: ['organizationId', 'role'] });
}

/**
 * What a user principal carries about its person, in one statement: the organizations they are a
 * member of and their e-mail (billing matches the person as a customer by it: `/v1/users/benefits`).
 */
export async function userFacts(
  em: EntityManager,
  userId: string,
): Promise<{ organizationIds: string[]; email: string | null }> {
  const rows = await em.execute<{ email: string | null; organization_ids: string[] | null }[]>(
    `select (select u.email from identity.users u where u.id = ?) as email,
            array(select m.organization_id from identity.memberships m where m.user_id = ?) as organization_ids`,
    [userId, userId],
  );
  return { organizationIds: rows[0]?.organization_ids ?? [], email: rows[0]?.email ?? null };
}

/** An organization's members with their e-mail and role, oldest first (the dashboard's Members page). */
export async function membersOf(
  em: EntityManager,
  organizationId: string,
): Promise<{ email: string; role: string; since: string }[]> {
  const rows = await em.execute<{ email: string; role: string; created_at: Date }[]>(
    `select u.email, m.role, m.created_at from identity.memberships m
       join identity.users u on u.id = m.user_id
      where m.organization_id = ? order by m.created_at, u.email`,
    [organizationId],
  );
  return rows.map(r => ({ email: r.email, role: r.role, since: new Date(r.created_at).toISOString() }));
}

/** A user's membership of an organization, or null. */
export function membershipOf(em: EntityManager, userId: string, organizationId: string): Promise<Membership | null> {
  return em.findOne(Membership, { userId, organizationId });
}

/**
 * The organization's owners, their rows locked until the transaction ends (`em` is a transaction's): the
 * last-owner rule reads them so two changes at once cannot both leave the other as the last owner and then go.
 */
export function lockedOwners(em: EntityManager, organizationId: string): Promise<Membership[]> {
  return em.find(Membership, { organizationId, role: MemberRole.OWNER }, { lockMode: LockMode.PESSIMISTIC_WRITE });
}
