import type { OrganizationDirectory } from '../../identity/contract.js';
import type { ChangeDirection } from '../pricing/proration.js';
import type { ProrationBehavior } from './subscription.charger.js';

/**
 * The organization's proration choice (identity's `subscription_settings`): Polar's one
 * `proration_behavior`, and, beyond Polar, one for upgrades and one for downgrades (null: the general
 * one). Identity owns the settings; billing reads them through identity's `OrganizationDirectory`
 * (prorationSettingsFrom), since it never reads identity's tables.
 */
export interface OrganizationProrationSettings {
  proration_behavior: ProrationBehavior;
  proration_behavior_upgrade?: ProrationBehavior | null;
  proration_behavior_downgrade?: ProrationBehavior | null;
  /** `customer_portal_settings.subscription.pause` (absent: off, Polar's default). */
  customer_portal_subscription_pause?: boolean;
}

export type ProrationSettingsSource = (organizationId: string) => Promise<OrganizationProrationSettings | null>;

/** The settings as identity's directory (in-process or signed RPC) publishes them; null: no such organization. */
export function prorationSettingsFrom(directory: OrganizationDirectory): ProrationSettingsSource {
  return async organizationId => {
    const profile = await directory.profile(organizationId);
    if (!profile) return null;
    return {
      proration_behavior: profile.billing.prorationBehavior,
      proration_behavior_upgrade: profile.billing.prorationBehaviorUpgrade,
      proration_behavior_downgrade: profile.billing.prorationBehaviorDowngrade,
      customer_portal_subscription_pause: profile.customerPortalSettings.subscription.pause,
    };
  };
}

/** Polar's default for an organization that never chose (and when no reader is wired). */
export const DEFAULT_PRORATION_SETTINGS: OrganizationProrationSettings = { proration_behavior: 'prorate' };

/**
 * The behaviour of one change: the request's when it names one, else the organization's for the
 * change's direction (a change that costs the same per period follows the upgrade rule), else its
 * general `proration_behavior`.
 */
export function behaviorFor(
  requested: ProrationBehavior | null,
  settings: OrganizationProrationSettings | null,
  direction: ChangeDirection,
): ProrationBehavior {
  if (requested) return requested;
  const s = settings ?? DEFAULT_PRORATION_SETTINGS;
  const directional = direction === 'downgrade' ? s.proration_behavior_downgrade : s.proration_behavior_upgrade;
  return directional ?? s.proration_behavior;
}
