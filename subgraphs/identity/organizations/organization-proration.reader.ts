import type { MikroORM } from '@mikro-orm/postgresql';
import type { ProrationBehavior, SubscriptionSettings } from './organization.settings.js';

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
  // Straight on identity's connection: an entity manager would resolve to the caller's (billing's)
  // transaction context, which does not know identity's entities.
  return async organizationId => {
    const [row] = await orm.em
      .getConnection()
      .execute<{ s: SubscriptionSettings }[]>(
        'select subscription_settings as s from identity.organizations where id = ?',
        [organizationId],
      );
    if (!row) return null;
    const s = row.s;
    return {
      proration_behavior: s.proration_behavior,
      proration_behavior_upgrade: s.proration_behavior_upgrade ?? null,
      proration_behavior_downgrade: s.proration_behavior_downgrade ?? null,
    };
  };
}
