import { isCountryCode } from '../../../kit/countries.js';
import { TAX_SETTINGS_LIMITS as TAX } from '../../../kit/tax/tax-settings.js';
import { SOCIAL_PLATFORMS, TAX_BEHAVIORS } from '../../../subgraphs/identity/contract.js';
import { pydanticIssue } from '../validation.js';
import { graphqlInt } from './common.js';
import { addressResponse } from './customers.schemas.js';
import { z } from 'zod';

/** Wire shapes of organizations (docs/polar/resources.md#organization): request bodies and the response, for validation and OpenAPI. */
const url = z.url().min(1).max(2083);
const platform = z.enum(SOCIAL_PLATFORMS);
const socialLink = z.object({ platform, url });
const currency = z.string().regex(/^[a-zA-Z]{3}$/, 'Input should be a three-letter ISO 4217 currency code');
/**
 * Polar's CountryAlpha2: an assigned ISO 3166-1 alpha-2 code, upper case (kit/countries.ts). Checked
 * against the list, but described by its pattern: the list written out as an enum at every place a
 * country appears would be most of this document.
 */
const country = z
  .string()
  .superRefine((value, ctx) => {
    if (!isCountryCode(value)) pydanticIssue(ctx, value, 'enum', 'Input should be an ISO 3166-1 alpha-2 country code');
  })
  .meta({ title: 'CountryAlpha2', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 country code.' });
const taxBehavior = z.enum(TAX_BEHAVIORS);
const prorationBehavior = z.enum(['invoice', 'prorate', 'next_period', 'reset']);

const details = z.object({
  about: z.string().nullish(),
  product_description: z.string().nullish(),
  selling_categories: z.array(z.string()).optional(),
  pricing_models: z.array(z.string()).optional(),
  intended_use: z.string().nullish(),
  customer_acquisition: z.array(z.string()).optional(),
  future_annual_revenue: graphqlInt().gte(0).nullish(),
  switching: z.boolean().optional(),
  switching_from: z.enum(['paddle', 'lemon_squeezy', 'gumroad', 'stripe', 'other']).nullish(),
  previous_annual_revenue: graphqlInt().gte(0).nullish(),
});

const featureSettingsUpdate = z.object({
  seat_based_pricing_enabled: z.boolean().optional(),
  member_model_enabled: z.boolean().optional(),
  /** Beyond Polar, where support switches it on: the seller does here (docs/selling.md#draft-orders). */
  off_session_charges_enabled: z.boolean().optional(),
  checkout_localization_enabled: z.boolean().optional(),
  overview_metrics: z.array(z.string()).nullish(),
});

const subscriptionSettings = z.object({
  allow_multiple_subscriptions: z.boolean(),
  proration_behavior: prorationBehavior,
  /** Beyond Polar: the behaviour of upgrades and of downgrades (null: `proration_behavior`). */
  proration_behavior_upgrade: prorationBehavior.nullish(),
  proration_behavior_downgrade: prorationBehavior.nullish(),
  benefit_revocation_grace_period: graphqlInt().gte(0),
  prevent_trial_abuse: z.boolean(),
  allow_customer_updates: z.boolean(),
});

const customerEmailSettings = z.object({
  order_confirmation: z.boolean(),
  payment_method_expiration_reminder: z.boolean().optional(),
  subscription_cancellation: z.boolean(),
  subscription_confirmation: z.boolean(),
  subscription_cycled: z.boolean(),
  subscription_cycled_after_trial: z.boolean().optional(),
  subscription_past_due: z.boolean(),
  subscription_paused: z.boolean().optional(),
  subscription_resumed: z.boolean().optional(),
  subscription_renewal_reminder: z.boolean().optional(),
  subscription_revoked: z.boolean(),
  subscription_trial_conversion_reminder: z.boolean().optional(),
  subscription_uncanceled: z.boolean(),
  subscription_updated: z.boolean(),
});

const customerPortalSettings = z.object({
  usage: z.object({ show: z.boolean() }),
  // `cancel` is beyond Polar (customers may cancel in the portal; default true).
  subscription: z.object({
    update_seats: z.boolean(),
    update_plan: z.boolean(),
    pause: z.boolean().optional(),
    cancel: z.boolean().optional(),
  }),
  customer: z.object({ allow_email_change: z.boolean().optional() }).optional(),
});

/**
 * Beyond Polar: the seller's tax settings (docs/tax.md). The subgraph checks what a shape cannot: the
 * tax id against the organization's country, states only for US/CA, no duplicate registrations.
 */
const legalAddress = z.object({
  line1: z.string().nullish(),
  line2: z.string().nullish(),
  postal_code: z.string().nullish(),
  city: z.string().nullish(),
  state: z.string().nullish(),
  country,
});

const taxRegistration = z.object({
  country,
  state: z
    .string()
    .nullish()
    .meta({ description: 'A US state or Canadian province (`CA` or `US-CA`); only for US and CA registrations.' }),
  rate_basis_points: z
    .number()
    .int()
    .gte(0)
    .lte(TAX.rateBasisPointsMax)
    .meta({ description: 'The rate in basis points (2000 = 20 %).' }),
  display_name: z.string().min(1).max(TAX.displayNameMaxLength),
});

const taxSettingsInput = z
  .object({
    legal_name: z.string().max(TAX.legalNameMaxLength).nullish(),
    legal_address: legalAddress.nullish(),
    tax_id: z
      .string()
      .nullish()
      .meta({ description: "The seller's own VAT/tax number, validated for the organization's `country`." }),
    registrations: z
      .array(taxRegistration)
      .max(TAX.registrationsMax)
      .optional()
      .meta({ description: 'Where the seller is registered to collect tax outside the EU; replaces the list.' }),
    stripe_tax_enabled: z
      .boolean()
      .optional()
      .meta({ description: 'Ask Stripe Tax instead of the built-in rules when Stripe is the processor.' }),
  })
  .meta({
    description:
      "Beyond Polar: the seller's tax settings. A partial update: a key left out keeps its value, null clears it.",
  });

const sharedFields = {
  avatar_url: url.nullish(),
  email: z.email().nullish(),
  website: url.nullish(),
  socials: z.array(socialLink).nullish(),
  details: details.nullish(),
  country: country.nullish(),
  feature_settings: featureSettingsUpdate.nullish(),
  subscription_settings: subscriptionSettings.nullish(),
  customer_email_settings: customerEmailSettings.nullish(),
  customer_portal_settings: customerPortalSettings.nullish(),
  tax_settings: taxSettingsInput.nullish(),
};

export const organizationCreateBody = z.object({
  name: z.string().min(3),
  slug: z.string().min(3).max(64),
  legal_entity: z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('individual') }),
      z.object({ type: z.literal('company'), registered_name: z.string().min(1) }),
    ])
    .nullish(),
  ...sharedFields,
  default_presentment_currency: currency.default('usd'),
  default_tax_behavior: taxBehavior.default('location'),
});

export const organizationUpdateBody = z.object({
  name: z.string().min(3).nullish(),
  ...sharedFields,
  dispute_settings: z.object({ auto_accept_below_amount: graphqlInt().gte(0).nullish() }).nullish(),
  embed_hosts: z.array(z.string()).nullish(),
  default_presentment_currency: currency.nullish(),
  default_tax_behavior: taxBehavior.nullish(),
  sso_enforced: z.boolean().nullish(),
});

const dateTime = z.iso.datetime({ offset: true });

export const organizationResponse = z.object({
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  avatar_url: z.string().nullable(),
  proration_behavior: prorationBehavior,
  allow_customer_updates: z.boolean(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  socials: z.array(socialLink),
  status: z.enum(['created', 'review', 'snoozed', 'denied', 'active', 'blocked', 'offboarding', 'offboarded']),
  details_submitted_at: dateTime.nullable(),
  onboarding_resubmission_requested_at: dateTime.nullable(),
  sso_enforced: z.boolean(),
  default_presentment_currency: z.string(),
  default_tax_behavior: taxBehavior,
  feature_settings: z.record(z.string(), z.unknown()).nullable(),
  subscription_settings: subscriptionSettings,
  notification_settings: z.object({
    new_order: z.boolean(),
    new_subscription: z.boolean(),
    chargeback_prevention: z.boolean(),
    subscription_renewal: z.boolean(),
  }),
  customer_email_settings: z.record(z.string(), z.boolean()),
  customer_portal_settings: customerPortalSettings,
  dispute_settings: z.object({ auto_accept_below_amount: z.number().int().nullable() }),
  embed_hosts: z.array(z.string()),
  embed_hosts_enforced: z.boolean(),
  country: z.string().nullable(),
  tax_settings: z
    .object({
      legal_name: z.string().nullable(),
      legal_address: addressResponse.nullable(),
      tax_id: z
        .tuple([z.string(), z.string()])
        .nullable()
        .meta({ description: '`[value, format]`, like a customer tax id.' }),
      registrations: z.array(
        z.object({
          country: z.string(),
          state: z.string().nullable(),
          rate_basis_points: z.number().int(),
          display_name: z.string(),
        }),
      ),
      stripe_tax_enabled: z.boolean(),
    })
    .meta({ description: "Beyond Polar: the seller's legal identity and where it collects tax." }),
  account_id: z.uuid().nullable(),
  payout_account_id: z.uuid().nullable(),
  capabilities: z.record(z.string(), z.boolean()),
});
