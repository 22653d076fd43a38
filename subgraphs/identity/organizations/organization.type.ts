import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLISODateTime } from 'type-graphql';
import { camelKeys } from '../../../kit/case.js';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { defaultTaxSettings } from '../../../kit/tax/tax-settings.js';
import type { Organization as OrganizationEntity } from './organization.entity.js';
import { type CustomerPortalSettings, defaultCustomerPortalSettings } from './organization.settings.js';

/**
 * Every type here is plain data (no field resolvers, middlewares or auth on fields): type-graphql's
 * simple resolvers leave them to graphql-js's default resolver instead of wrapping each of the ~80
 * fields of an organization in its middleware pipeline, which was a measurable part of a list request.
 */
const SIMPLE = { simpleResolvers: true } as const;

type Timestamps = 'createdAt' | 'modifiedAt' | 'detailsSubmittedAt';

/** An organization as the read path returns it (organization.read.ts): the entity's data, timestamps as ISO strings. */
export type OrganizationRow = Omit<OrganizationEntity, Timestamps> & {
  createdAt: string | Date;
  modifiedAt: string | Date | null;
  detailsSubmittedAt: string | Date | null;
};

@ObjectType('OrganizationFeatureSettings', SIMPLE)
export class FeatureSettingsType {
  @Field() issueFundingEnabled!: boolean;
  @Field() seatBasedPricingEnabled!: boolean;
  @Field() walletsEnabled!: boolean;
  @Field() memberModelEnabled!: boolean;
  @Field() checkoutLocalizationEnabled!: boolean;
  @Field(() => [String], { nullable: true }) overviewMetrics!: string[] | null;
  @Field() resetProrationBehaviorEnabled!: boolean;
  @Field() offSessionChargesEnabled!: boolean;
  @Field() meterCyclingEnabled!: boolean;
  @Field() slackBenefitEnabled!: boolean;
  @Field() previewAccessEnabled!: boolean;
  @Field() disputesEnabled!: boolean;
  @Field() ssoEnabled!: boolean;
  @Field() disputeAutoAcceptEnabled!: boolean;
  @Field() compassEnabled!: boolean;
  @Field() merchantMigrationEnabled!: boolean;
}

@ObjectType('OrganizationSubscriptionSettings', SIMPLE)
export class SubscriptionSettingsType {
  @Field() allowMultipleSubscriptions!: boolean;
  @Field() prorationBehavior!: string;
  @Field(() => String, { nullable: true, description: 'Beyond Polar: for upgrades; null: prorationBehavior.' })
  prorationBehaviorUpgrade?: string | null;
  @Field(() => String, { nullable: true, description: 'Beyond Polar: for downgrades; null: prorationBehavior.' })
  prorationBehaviorDowngrade?: string | null;
  @Field(() => Int) benefitRevocationGracePeriod!: number;
  @Field() preventTrialAbuse!: boolean;
  @Field() allowCustomerUpdates!: boolean;
}

@ObjectType('OrganizationCustomerEmailSettings', SIMPLE)
export class CustomerEmailSettingsType {
  @Field() orderConfirmation!: boolean;
  @Field() paymentMethodExpirationReminder!: boolean;
  @Field() subscriptionCancellation!: boolean;
  @Field() subscriptionConfirmation!: boolean;
  @Field() subscriptionCycled!: boolean;
  @Field() subscriptionCycledAfterTrial!: boolean;
  @Field() subscriptionPastDue!: boolean;
  @Field() subscriptionPaused!: boolean;
  @Field() subscriptionResumed!: boolean;
  @Field() subscriptionRenewalReminder!: boolean;
  @Field() subscriptionRevoked!: boolean;
  @Field() subscriptionTrialConversionReminder!: boolean;
  @Field() subscriptionUncanceled!: boolean;
  @Field() subscriptionUpdated!: boolean;
}

@ObjectType('CustomerPortalUsageSettings', SIMPLE)
export class PortalUsageSettingsType {
  @Field() show!: boolean;
}

@ObjectType('CustomerPortalSubscriptionSettings', SIMPLE)
export class PortalSubscriptionSettingsType {
  @Field() updateSeats!: boolean;
  @Field() updatePlan!: boolean;
  @Field() pause!: boolean;
  @Field({ description: 'Beyond Polar: whether customers may cancel in the portal (default true).' })
  cancel!: boolean;
}

@ObjectType('CustomerPortalCustomerSettings', SIMPLE)
export class PortalCustomerSettingsType {
  @Field() allowEmailChange!: boolean;
}

@ObjectType('OrganizationCustomerPortalSettings', SIMPLE)
export class CustomerPortalSettingsType {
  @Field(() => PortalUsageSettingsType) usage!: PortalUsageSettingsType;
  @Field(() => PortalSubscriptionSettingsType) subscription!: PortalSubscriptionSettingsType;
  @Field(() => PortalCustomerSettingsType) customer!: PortalCustomerSettingsType;
}

@ObjectType('OrganizationDisputeSettings', SIMPLE)
export class DisputeSettingsType {
  @Field(() => Int, { nullable: true }) autoAcceptBelowAmount!: number | null;
}

@ObjectType('OrganizationNotificationSettings', SIMPLE)
export class NotificationSettingsType {
  @Field() newOrder!: boolean;
  @Field() newSubscription!: boolean;
  @Field() chargebackPrevention!: boolean;
  @Field() subscriptionRenewal!: boolean;
}

@ObjectType('OrganizationSocialLink', SIMPLE)
export class SocialLinkType {
  @Field() platform!: string;
  @Field() url!: string;
}

@ObjectType('OrganizationCapabilities', SIMPLE)
export class CapabilitiesType {
  @Field() checkoutPayments!: boolean;
  @Field() subscriptionRenewals!: boolean;
  @Field() payouts!: boolean;
  @Field() refunds!: boolean;
  @Field() apiAccess!: boolean;
  @Field() dashboardAccess!: boolean;
}

@ObjectType('OrganizationAddress', SIMPLE)
export class OrganizationAddressType {
  @Field(() => String, { nullable: true }) line1!: string | null;
  @Field(() => String, { nullable: true }) line2!: string | null;
  @Field(() => String, { nullable: true }) postalCode!: string | null;
  @Field(() => String, { nullable: true }) city!: string | null;
  @Field(() => String, { nullable: true }) state!: string | null;
  @Field() country!: string;
}

@ObjectType('OrganizationTaxRegistration', SIMPLE)
export class TaxRegistrationType {
  @Field() country!: string;
  @Field(() => String, { nullable: true }) state!: string | null;
  @Field(() => Int) rateBasisPoints!: number;
  @Field() displayName!: string;
}

@ObjectType('OrganizationTaxSettings', {
  ...SIMPLE,
  description: "Beyond Polar: the seller's legal identity and where it collects tax.",
})
export class TaxSettingsType {
  @Field(() => String, { nullable: true }) legalName!: string | null;
  @Field(() => OrganizationAddressType, { nullable: true }) legalAddress!: OrganizationAddressType | null;
  @Field(() => [String], { nullable: true, description: '`[value, format]`, like a customer tax id.' })
  taxId!: [string, string] | null;
  @Field(() => [TaxRegistrationType]) registrations!: TaxRegistrationType[];
  @Field() stripeTaxEnabled!: boolean;
}

/** The public Organization (docs/polar/resources.md#organization). Built from the entity by `fromEntity`, never the entity itself. */
@ObjectType('Organization', SIMPLE)
@Directive('@key(fields: "id")')
export class OrganizationType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field() name!: string;
  @Field() slug!: string;
  @Field(() => String, { nullable: true }) avatarUrl!: string | null;
  @Field() prorationBehavior!: string;
  @Field() allowCustomerUpdates!: boolean;
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field(() => String, { nullable: true }) website!: string | null;
  @Field(() => [SocialLinkType]) socials!: SocialLinkType[];
  @Field() status!: string;
  @Field(() => GraphQLISODateTime, { nullable: true }) detailsSubmittedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) onboardingResubmissionRequestedAt!: Date | null;
  @Field() ssoEnforced!: boolean;
  @Field() defaultPresentmentCurrency!: string;
  @Field() defaultTaxBehavior!: string;
  @Field(() => FeatureSettingsType, { nullable: true }) featureSettings!: FeatureSettingsType | null;
  @Field(() => SubscriptionSettingsType) subscriptionSettings!: SubscriptionSettingsType;
  @Field(() => NotificationSettingsType) notificationSettings!: NotificationSettingsType;
  @Field(() => CustomerEmailSettingsType) customerEmailSettings!: CustomerEmailSettingsType;
  @Field(() => CustomerPortalSettingsType) customerPortalSettings!: CustomerPortalSettingsType;
  @Field(() => DisputeSettingsType) disputeSettings!: DisputeSettingsType;
  @Field(() => [String]) embedHosts!: string[];
  @Field() embedHostsEnforced!: boolean;
  @Field(() => String, { nullable: true }) country!: string | null;
  @Field(() => TaxSettingsType) taxSettings!: TaxSettingsType;
  @Field(() => ID, { nullable: true }) accountId!: string | null;
  @Field(() => ID, { nullable: true }) payoutAccountId!: string | null;
  @Field(() => CapabilitiesType) capabilities!: CapabilitiesType;

  /** From a managed entity (writes) or a read row (JSON: timestamps as ISO strings). */
  static fromEntity(o: OrganizationEntity | OrganizationRow): OrganizationType {
    return {
      id: o.id,
      createdAt: toDate(o.createdAt),
      modifiedAt: toDate(o.modifiedAt),
      name: o.name,
      slug: o.slug,
      avatarUrl: o.avatarUrl,
      prorationBehavior: o.subscriptionSettings.proration_behavior,
      allowCustomerUpdates: o.subscriptionSettings.allow_customer_updates,
      email: o.email,
      website: o.website,
      socials: o.socials,
      status: o.status,
      detailsSubmittedAt: toDate(o.detailsSubmittedAt),
      onboardingResubmissionRequestedAt: null,
      ssoEnforced: o.ssoEnforced,
      defaultPresentmentCurrency: o.defaultPresentmentCurrency,
      defaultTaxBehavior: o.defaultTaxBehavior,
      featureSettings: camelKeys(o.featureSettings),
      subscriptionSettings: camelKeys(o.subscriptionSettings),
      notificationSettings: camelKeys(o.notificationSettings),
      customerEmailSettings: camelKeys(o.customerEmailSettings),
      customerPortalSettings: camelKeys(withPortalDefaults(o.customerPortalSettings)),
      disputeSettings: camelKeys(o.disputeSettings),
      embedHosts: o.embedHosts,
      embedHostsEnforced: o.embedHostsEnforced,
      country: o.country,
      taxSettings: camelKeys({ ...defaultTaxSettings(), ...o.taxSettings }),
      accountId: null,
      payoutAccountId: null,
      // NOTE: a self-hosted instance has no platform review, so every capability is on.
      capabilities: {
        checkoutPayments: true,
        subscriptionRenewals: true,
        payouts: true,
        refunds: true,
        apiAccess: true,
        dashboardAccess: true,
      },
    };
  }
}

@ObjectType('OrganizationList', SIMPLE)
export class OrganizationList extends ListResource(OrganizationType) {}

/** Stored settings from before a key existed (`cancel`) read as its default. */
function withPortalDefaults(stored: CustomerPortalSettings): CustomerPortalSettings {
  const defaults = defaultCustomerPortalSettings();
  return {
    usage: { ...defaults.usage, ...stored.usage },
    subscription: { ...defaults.subscription, ...stored.subscription },
    customer: { ...defaults.customer, ...stored.customer },
  };
}
