import type { MikroORM } from '@mikro-orm/postgresql';
import type { OrganizationProrationChoice, OrganizationSettingsReader } from './organization-settings.contract.js';
import type { CustomerPortalSettings, SubscriptionSettings } from './organization.settings.js';

/**
 * The proration choice of an organization, for billing's plan changes: identity owns the settings and
 * the composition root hands this reader to billing (billing never reads identity's tables), in-process
 * or over `ORGANIZATION_SETTINGS_RPC`.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class InProcessOrganizationSettings implements OrganizationSettingsReader {
  constructor(private readonly orm: MikroORM) {}

  async prorationChoice(organizationId: string): Promise<OrganizationProrationChoice | null> {
    // Straight on identity's connection: an entity manager would resolve to the caller's (billing's)
    // transaction context, which does not know identity's entities.
    if (!UUID.test(organizationId)) return null;
    const [row] = await this.orm.em
      .getConnection()
      .execute<{ s: SubscriptionSettings; p: CustomerPortalSettings }[]>(
        'select subscription_settings as s, customer_portal_settings as p from identity.organizations where id = ?',
        [organizationId],
      );
    if (!row) return null;
    const s = row.s;
    return {
      proration_behavior: s.proration_behavior,
      proration_behavior_upgrade: s.proration_behavior_upgrade ?? null,
      proration_behavior_downgrade: s.proration_behavior_downgrade ?? null,
      // Polar's default when the key was never set: off.
      customer_portal_subscription_pause: row.p?.subscription?.pause === true,
    };
  }
}
