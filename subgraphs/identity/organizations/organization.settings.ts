/**
 * The JSON settings blocks of an organization, with the defaults a new organization gets. Shapes
 * follow docs/polar/resources.md#organization; they are stored as jsonb because they change together with the row and
 * are never queried by their inner fields.
 */
export interface FeatureSettings {
  issue_funding_enabled: boolean;
  seat_based_pricing_enabled: boolean;
  wallets_enabled: boolean;
  member_model_enabled: boolean;
  checkout_localization_enabled: boolean;
  overview_metrics: string[] | null;
  reset_proration_behavior_enabled: boolean;
  off_session_charges_enabled: boolean;
  meter_cycling_enabled: boolean;
  slack_benefit_enabled: boolean;
  preview_access_enabled: boolean;
  disputes_enabled: boolean;
  sso_enabled: boolean;
  dispute_auto_accept_enabled: boolean;
  compass_enabled: boolean;
  merchant_migration_enabled: boolean;
}

export type ProrationBehavior = 'invoice' | 'prorate' | 'next_period' | 'reset';

export interface SubscriptionSettings {
  allow_multiple_subscriptions: boolean;
  proration_behavior: ProrationBehavior;
  /**
   * Beyond Polar: the behaviour of a change to a plan that costs more per period (upgrade) or less
   * (downgrade); null or absent: `proration_behavior`. A request's own `proration_behavior` wins.
   */
  proration_behavior_upgrade?: ProrationBehavior | null;
  proration_behavior_downgrade?: ProrationBehavior | null;
  benefit_revocation_grace_period: number;
  prevent_trial_abuse: boolean;
  allow_customer_updates: boolean;
}

export const CUSTOMER_EMAIL_KEYS = [
  'order_confirmation',
  'payment_method_expiration_reminder',
  'subscription_cancellation',
  'subscription_confirmation',
  'subscription_cycled',
  'subscription_cycled_after_trial',
  'subscription_past_due',
  'subscription_paused',
  'subscription_resumed',
  'subscription_renewal_reminder',
  'subscription_revoked',
  'subscription_trial_conversion_reminder',
  'subscription_uncanceled',
  'subscription_updated',
] as const;
export type CustomerEmailSettings = Record<(typeof CUSTOMER_EMAIL_KEYS)[number], boolean>;

export interface CustomerPortalSettings {
  usage: { show: boolean };
  /**
   * `cancel` is beyond Polar (whose portal always lets a customer cancel at period end): false hides the
   * portal's cancel and refuses the portal API's cancel with 403 `CancelSubscriptionNotAllowed`.
   */
  subscription: { update_seats: boolean; update_plan: boolean; pause: boolean; cancel: boolean };
  customer: { allow_email_change: boolean };
}

export interface DisputeSettings {
  auto_accept_below_amount: number | null;
}

export interface NotificationSettings {
  new_order: boolean;
  new_subscription: boolean;
  chargeback_prevention: boolean;
  subscription_renewal: boolean;
}

export interface SocialLink {
  platform: string;
  url: string;
}

export interface OrganizationDetails {
  about?: string | null;
  product_description?: string | null;
  selling_categories?: string[];
  pricing_models?: string[];
  intended_use?: string | null;
  customer_acquisition?: string[];
  future_annual_revenue?: number | null;
  switching?: boolean;
  switching_from?: string | null;
  previous_annual_revenue?: number | null;
}

export const defaultFeatureSettings = (): FeatureSettings => ({
  issue_funding_enabled: false,
  seat_based_pricing_enabled: false,
  wallets_enabled: false,
  member_model_enabled: false,
  checkout_localization_enabled: false,
  overview_metrics: null,
  reset_proration_behavior_enabled: false,
  off_session_charges_enabled: false,
  meter_cycling_enabled: false,
  slack_benefit_enabled: false,
  preview_access_enabled: false,
  disputes_enabled: false,
  sso_enabled: false,
  dispute_auto_accept_enabled: false,
  compass_enabled: false,
  merchant_migration_enabled: false,
});

export const defaultSubscriptionSettings = (): SubscriptionSettings => ({
  allow_multiple_subscriptions: false,
  proration_behavior: 'prorate',
  proration_behavior_upgrade: null,
  proration_behavior_downgrade: null,
  benefit_revocation_grace_period: 0,
  prevent_trial_abuse: false,
  allow_customer_updates: true,
});

export const defaultCustomerEmailSettings = (): CustomerEmailSettings =>
  Object.fromEntries(CUSTOMER_EMAIL_KEYS.map(k => [k, true])) as CustomerEmailSettings;

export const defaultCustomerPortalSettings = (): CustomerPortalSettings => ({
  usage: { show: true },
  subscription: { update_seats: true, update_plan: true, pause: false, cancel: true },
  customer: { allow_email_change: true },
});

export const defaultDisputeSettings = (): DisputeSettings => ({ auto_accept_below_amount: null });

export const defaultNotificationSettings = (): NotificationSettings => ({
  new_order: true,
  new_subscription: true,
  chargeback_prevention: true,
  subscription_renewal: true,
});
