import { Field, InputType, Int } from 'type-graphql';

@InputType('OrganizationSocialLinkInput')
export class SocialLinkInput {
  @Field() platform!: string;
  @Field() url!: string;
}

@InputType('OrganizationDetailsInput')
export class DetailsInput {
  @Field(() => String, { nullable: true }) about?: string | null;
  @Field(() => String, { nullable: true }) productDescription?: string | null;
  @Field(() => [String], { nullable: true }) sellingCategories?: string[];
  @Field(() => [String], { nullable: true }) pricingModels?: string[];
  @Field(() => String, { nullable: true }) intendedUse?: string | null;
  @Field(() => [String], { nullable: true }) customerAcquisition?: string[];
  @Field(() => Int, { nullable: true }) futureAnnualRevenue?: number | null;
  @Field(() => Boolean, { nullable: true }) switching?: boolean;
  @Field(() => String, { nullable: true }) switchingFrom?: string | null;
  @Field(() => Int, { nullable: true }) previousAnnualRevenue?: number | null;
}

@InputType('OrganizationFeatureSettingsInput')
export class FeatureSettingsInput {
  @Field(() => Boolean, { nullable: true }) seatBasedPricingEnabled?: boolean;
  @Field(() => Boolean, { nullable: true }) memberModelEnabled?: boolean;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Beyond Polar (where support switches it on): draft orders charged off-session (POST /v1/orders).',
  })
  offSessionChargesEnabled?: boolean;
  @Field(() => Boolean, { nullable: true }) checkoutLocalizationEnabled?: boolean;
  @Field(() => [String], { nullable: true }) overviewMetrics?: string[] | null;
}

@InputType('OrganizationSubscriptionSettingsInput')
export class SubscriptionSettingsInput {
  @Field() allowMultipleSubscriptions!: boolean;
  @Field() prorationBehavior!: string;
  @Field(() => String, { nullable: true }) prorationBehaviorUpgrade?: string | null;
  @Field(() => String, { nullable: true }) prorationBehaviorDowngrade?: string | null;
  @Field(() => Int) benefitRevocationGracePeriod!: number;
  @Field() preventTrialAbuse!: boolean;
  @Field() allowCustomerUpdates!: boolean;
}

@InputType('OrganizationCustomerEmailSettingsInput')
export class CustomerEmailSettingsInput {
  @Field() orderConfirmation!: boolean;
  @Field(() => Boolean, { nullable: true }) paymentMethodExpirationReminder?: boolean;
  @Field() subscriptionCancellation!: boolean;
  @Field() subscriptionConfirmation!: boolean;
  @Field() subscriptionCycled!: boolean;
  @Field(() => Boolean, { nullable: true }) subscriptionCycledAfterTrial?: boolean;
  @Field() subscriptionPastDue!: boolean;
  @Field(() => Boolean, { nullable: true }) subscriptionPaused?: boolean;
  @Field(() => Boolean, { nullable: true }) subscriptionResumed?: boolean;
  @Field(() => Boolean, { nullable: true }) subscriptionRenewalReminder?: boolean;
  @Field() subscriptionRevoked!: boolean;
  @Field(() => Boolean, { nullable: true }) subscriptionTrialConversionReminder?: boolean;
  @Field() subscriptionUncanceled!: boolean;
  @Field() subscriptionUpdated!: boolean;
}

@InputType('CustomerPortalUsageSettingsInput')
export class PortalUsageSettingsInput {
  @Field() show!: boolean;
}

@InputType('CustomerPortalSubscriptionSettingsInput')
export class PortalSubscriptionSettingsInput {
  @Field() updateSeats!: boolean;
  @Field() updatePlan!: boolean;
  @Field(() => Boolean, { nullable: true }) pause?: boolean;
  @Field(() => Boolean, { nullable: true }) cancel?: boolean;
}

@InputType('CustomerPortalCustomerSettingsInput')
export class PortalCustomerSettingsInput {
  @Field(() => Boolean, { nullable: true }) allowEmailChange?: boolean;
}

@InputType('OrganizationCustomerPortalSettingsInput')
export class CustomerPortalSettingsInput {
  @Field(() => PortalUsageSettingsInput) usage!: PortalUsageSettingsInput;
  @Field(() => PortalSubscriptionSettingsInput) subscription!: PortalSubscriptionSettingsInput;
  @Field(() => PortalCustomerSettingsInput, { nullable: true }) customer?: PortalCustomerSettingsInput;
}

@InputType('OrganizationDisputeSettingsInput')
export class DisputeSettingsInput {
  @Field(() => Int, { nullable: true }) autoAcceptBelowAmount?: number | null;
}

@InputType('OrganizationAddressInput')
export class OrganizationAddressInput {
  @Field(() => String, { nullable: true }) line1?: string | null;
  @Field(() => String, { nullable: true }) line2?: string | null;
  @Field(() => String, { nullable: true }) postalCode?: string | null;
  @Field(() => String, { nullable: true }) city?: string | null;
  @Field(() => String, { nullable: true }) state?: string | null;
  @Field() country!: string;
}

@InputType('OrganizationTaxRegistrationInput')
export class TaxRegistrationInput {
  @Field() country!: string;
  @Field(() => String, {
    nullable: true,
    description: 'US state or Canadian province (`CA` or `US-CA`); null elsewhere.',
  })
  state?: string | null;
  @Field(() => Int, { description: 'The rate in basis points, 0..10000 (2000 = 20 %).' }) rateBasisPoints!: number;
  @Field() displayName!: string;
}

/** Beyond Polar: a partial update; a key left out keeps its value, null clears it (docs/tax-settings.md). */
@InputType('OrganizationTaxSettingsInput')
export class TaxSettingsInput {
  @Field(() => String, { nullable: true }) legalName?: string | null;
  @Field(() => OrganizationAddressInput, { nullable: true }) legalAddress?: OrganizationAddressInput | null;
  @Field(() => String, { nullable: true, description: "The seller's VAT/tax number, for the organization's country." })
  taxId?: string | null;
  @Field(() => [TaxRegistrationInput], { nullable: true }) registrations?: TaxRegistrationInput[] | null;
  @Field(() => Boolean, { nullable: true }) stripeTaxEnabled?: boolean | null;
}

/** Fields both create and update accept. */
@InputType()
abstract class OrganizationSettingsFields {
  @Field(() => String, { nullable: true }) avatarUrl?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) website?: string | null;
  @Field(() => [SocialLinkInput], { nullable: true }) socials?: SocialLinkInput[] | null;
  @Field(() => DetailsInput, { nullable: true }) details?: DetailsInput | null;
  @Field(() => String, { nullable: true }) country?: string | null;
  @Field(() => FeatureSettingsInput, { nullable: true }) featureSettings?: FeatureSettingsInput | null;
  @Field(() => SubscriptionSettingsInput, { nullable: true }) subscriptionSettings?: SubscriptionSettingsInput | null;
  @Field(() => CustomerEmailSettingsInput, { nullable: true })
  customerEmailSettings?: CustomerEmailSettingsInput | null;
  @Field(() => CustomerPortalSettingsInput, { nullable: true })
  customerPortalSettings?: CustomerPortalSettingsInput | null;
  @Field(() => String, { nullable: true }) defaultPresentmentCurrency?: string | null;
  @Field(() => String, { nullable: true }) defaultTaxBehavior?: string | null;
  @Field(() => TaxSettingsInput, { nullable: true }) taxSettings?: TaxSettingsInput | null;
}

@InputType('CreateOrganizationInput')
export class CreateOrganizationInput extends OrganizationSettingsFields {
  @Field() name!: string;
  @Field() slug!: string;
}

/** Every field optional; an empty input changes nothing (docs/interface.md#resources). */
@InputType('UpdateOrganizationInput')
export class UpdateOrganizationInput extends OrganizationSettingsFields {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => DisputeSettingsInput, { nullable: true }) disputeSettings?: DisputeSettingsInput | null;
  @Field(() => [String], { nullable: true }) embedHosts?: string[] | null;
  @Field(() => Boolean, { nullable: true }) ssoEnforced?: boolean | null;
}
