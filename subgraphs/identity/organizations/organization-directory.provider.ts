import { isUuid } from '../../../kit/uuid.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Organization } from './organization.entity.js';
import type { NotifiedOwner } from '../../../kit/email/owner-mailbox.js';
import type { OrganizationDirectory, OrganizationProfile } from './organization-directory.contract.js';
import { MANAGING_ROLES } from '../memberships/membership.entity.js';
import { defaultCustomerEmailSettings, defaultCustomerPortalSettings } from './organization.settings.js';
import { OrganizationDirectoryRepository } from './organization-directory.repository.js';
import { type SellerTaxSettings, defaultTaxSettings } from '../../../kit/tax/tax-settings.js';

/** The directory on identity's own tables (the identity process serves this object over signed RPC). */
export class InProcessOrganizationDirectory implements OrganizationDirectory {
  constructor(private readonly orm: MikroORM) {}

  async profile(id: string): Promise<OrganizationProfile | null> {
    if (typeof id !== 'string' || !isUuid(id)) return null;
    return profileOf(await this.repository().findById(id));
  }

  async profileBySlug(slug: string): Promise<OrganizationProfile | null> {
    if (typeof slug !== 'string' || slug.length === 0 || slug.length > 64) return null;
    return profileOf(await this.repository().findBySlug(slug));
  }

  async recipients(owner: NotifiedOwner): Promise<string[]> {
    if (owner?.type === 'address') return typeof owner.id === 'string' && owner.id.includes('@') ? [owner.id] : [];
    if (!owner || typeof owner.id !== 'string' || !isUuid(owner.id)) return [];
    const repository = this.repository();
    if (owner.type === 'user') return repository.userEmails(owner.id);
    if (owner.type !== 'organization') return [];
    const rows = await repository.memberEmails(owner.id);
    const managing = rows.filter(r => MANAGING_ROLES.has(r.role as never));
    return [...new Set((managing.length ? managing : rows).map(r => r.email))];
  }

  async memberEmails(organizationId: string): Promise<string[]> {
    if (typeof organizationId !== 'string' || !isUuid(organizationId)) return [];
    return [...new Set((await this.repository().memberEmails(organizationId)).map(r => r.email))];
  }

  /** On identity's connection, never an entity manager (see OrganizationDirectoryRepository). */
  private repository(): OrganizationDirectoryRepository {
    return new OrganizationDirectoryRepository(this.orm.em.getConnection());
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
    defaultPresentmentCurrency: organization.defaultPresentmentCurrency ?? 'usd',
    // Rows written before a key existed read as its default.
    customerPortalSettings: {
      usage: { ...defaults.usage, ...stored.usage },
      subscription: { ...defaults.subscription, ...stored.subscription },
      customer: { ...defaults.customer, ...stored.customer },
    },
    customerEmailSettings: { ...defaultCustomerEmailSettings(), ...organization.customerEmailSettings },
    billing: {
      benefitRevocationGracePeriod:
        Number(organization.subscriptionSettings?.benefit_revocation_grace_period ?? 0) || 0,
      preventTrialAbuse: organization.subscriptionSettings?.prevent_trial_abuse === true,
      prorationBehavior: organization.subscriptionSettings?.proration_behavior ?? 'prorate',
      prorationBehaviorUpgrade: organization.subscriptionSettings?.proration_behavior_upgrade ?? null,
      prorationBehaviorDowngrade: organization.subscriptionSettings?.proration_behavior_downgrade ?? null,
    },
    features: {
      seatBasedPricingEnabled: organization.featureSettings?.seat_based_pricing_enabled === true,
      memberModelEnabled: organization.featureSettings?.member_model_enabled === true,
      offSessionChargesEnabled: organization.featureSettings?.off_session_charges_enabled === true,
    },
    tax: taxOf(organization),
  };
}

function taxOf(organization: Organization): SellerTaxSettings {
  const settings = { ...defaultTaxSettings(), ...organization.taxSettings };
  return {
    country: organization.country ?? null,
    defaultTaxBehavior: organization.defaultTaxBehavior ?? 'location',
    legalName: settings.legal_name,
    legalAddress: settings.legal_address,
    taxId: settings.tax_id?.[0] ?? null,
    registrations: settings.registrations,
    stripeTaxEnabled: settings.stripe_tax_enabled === true,
  };
}
