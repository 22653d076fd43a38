import type { MikroORM } from '@mikro-orm/postgresql';
import { Organization } from './organization.entity.js';
import type { OrganizationDirectory, OrganizationProfile } from './organization-directory.contract.js';
import { defaultCustomerPortalSettings } from './organization.settings.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The directory on identity's own tables (the identity process serves this object over signed RPC). */
export class InProcessOrganizationDirectory implements OrganizationDirectory {
  constructor(private readonly orm: MikroORM) {}

  async profile(id: string): Promise<OrganizationProfile | null> {
    if (typeof id !== 'string' || !UUID.test(id)) return null;
    return profileOf(await this.orm.em.fork().findOne(Organization, { id }));
  }

  async profileBySlug(slug: string): Promise<OrganizationProfile | null> {
    if (typeof slug !== 'string' || slug.length === 0 || slug.length > 64) return null;
    return profileOf(await this.orm.em.fork().findOne(Organization, { slug }));
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
  };
}
