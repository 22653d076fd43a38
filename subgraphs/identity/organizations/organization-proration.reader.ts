import type { MikroORM } from '@mikro-orm/postgresql';
import { Organization } from './organization.entity.js';
import type { ProrationBehavior } from './organization.settings.js';

export interface OrganizationProrationChoice {
  proration_behavior: ProrationBehavior;
  proration_behavior_upgrade: ProrationBehavior | null;
  proration_behavior_downgrade: ProrationBehavior | null;
}

/**
 * The proration choice of an organization, for billing's plan changes: identity owns the settings and
 * the composition root hands this reader to billing (billing never reads identity's tables). Plain
 * JSON, so it can travel over the signed RPC of the distributed topology as well.
 */
export function organizationProrationReader(
  orm: MikroORM,
): (organizationId: string) => Promise<OrganizationProrationChoice | null> {
  return async organizationId => {
    const organization = await orm.em
      .fork()
      .findOne(Organization, { id: organizationId }, { fields: ['id', 'subscriptionSettings'] });
    if (!organization) return null;
    const s = organization.subscriptionSettings;
    return {
      proration_behavior: s.proration_behavior,
      proration_behavior_upgrade: s.proration_behavior_upgrade ?? null,
      proration_behavior_downgrade: s.proration_behavior_downgrade ?? null,
    };
  };
}
