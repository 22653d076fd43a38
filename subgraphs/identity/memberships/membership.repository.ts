import type { EntityManager } from '@mikro-orm/postgresql';
import { Membership } from './membership.entity.js';

/** The ids of the organizations a user is a member of (principal resolution, OAuth grants and tokens). */
export async function memberOrganizationIds(em: EntityManager, userId: string): Promise<string[]> {
  const rows = await em.find(Membership, { userId }, { fields: ['organizationId'] });
  return rows.map(m => m.organizationId);
}
