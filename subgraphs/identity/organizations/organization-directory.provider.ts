import type { MikroORM } from '@mikro-orm/postgresql';
import type { Organization } from './organization.entity.js';
import type { NotifiedOwner } from '../../../kit/email/owner-mailbox.js';
import type { OrganizationDirectory, OrganizationProfile } from './organization-directory.contract.js';
import { MANAGING_ROLES } from '../memberships/membership.entity.js';
import { defaultCustomerPortalSettings } from './organization.settings.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The directory on identity's own tables (the identity process serves this object over signed RPC). */
export class InProcessOrganizationDirectory implements OrganizationDirectory {
  constructor(private readonly orm: MikroORM) {}

  async profile(id: string): Promise<OrganizationProfile | null> {
    if (typeof id !== 'string' || !UUID.test(id)) return null;
    return profileOf(await this.row('id = ?', id));
  }

  async profileBySlug(slug: string): Promise<OrganizationProfile | null> {
    if (typeof slug !== 'string' || slug.length === 0 || slug.length > 64) return null;
    return profileOf(await this.row('slug = ?', slug));
  }

  async recipients(owner: NotifiedOwner): Promise<string[]> {
    if (!owner || typeof owner.id !== 'string' || !UUID.test(owner.id)) return [];
    const connection = this.orm.em.getConnection();
    if (owner.type === 'user') {
      const rows = await connection.execute<{ email: string }[]>('select email from identity.users where id = ?', [
        owner.id,
      ]);
      return rows.map(r => r.email);
    }
    if (owner.type !== 'organization') return [];
    const rows = await connection.execute<{ email: string; role: string }[]>(
      `select u.email, m.role from identity.memberships m join identity.users u on u.id = m.user_id
        where m.organization_id = ? order by m.created_at, u.email`,
      [owner.id],
    );
    const managing = rows.filter(r => MANAGING_ROLES.has(r.role as never));
    return [...new Set((managing.length ? managing : rows).map(r => r.email))];
  }

  /**
   * Straight on identity's connection, never an entity manager: billing calls this inside its own
   * transactions, where MikroORM's request context would hand identity's `em.fork()` billing's
   * context, which does not know identity's entities.
   */
  private async row(where: string, value: string): Promise<Organization | null> {
    const [row] = await this.orm.em.getConnection().execute<Record<string, unknown>[]>(
      `select id, name, slug, avatar_url, customer_portal_settings, subscription_settings
         from identity.organizations where ${where}`,
      [value],
    );
    return row
      ? ({
          id: row.id,
          name: row.name,
          slug: row.slug,
          avatarUrl: row.avatar_url ?? null,
          customerPortalSettings: row.customer_portal_settings,
          subscriptionSettings: row.subscription_settings,
        } as Organization)
      : null;
  }
}

function profileOf(organization: Organization | null): OrganizationProfile | null {
  if (!organization) return null;
  const defaults = defaultCustomerPortalSettings();
  const stored = organization.customerPortalSettings ?? defaults;
  return {
    id: organization.id,
    name: organization.name,
    slug: organization.slug,
    avatarUrl: organization.avatarUrl ?? null,
    // Rows written before a key existed read as its default.
    customerPortalSettings: {
      usage: { ...defaults.usage, ...stored.usage },
      subscription: { ...defaults.subscription, ...stored.subscription },
      customer: { ...defaults.customer, ...stored.customer },
    },
    billing: {
      benefitRevocationGracePeriod:
        Number(organization.subscriptionSettings?.benefit_revocation_grace_period ?? 0) || 0,
      preventTrialAbuse: organization.subscriptionSettings?.prevent_trial_abuse === true,
      prorationBehavior: organization.subscriptionSettings?.proration_behavior ?? 'prorate',
      prorationBehaviorUpgrade: organization.subscriptionSettings?.proration_behavior_upgrade ?? null,
      prorationBehaviorDowngrade: organization.subscriptionSettings?.proration_behavior_downgrade ?? null,
    },
  };
}
