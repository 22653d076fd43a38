import type { RpcContract } from '../../../kit/http/signed-rpc.js';
import type { ProrationBehavior } from './organization.settings.js';

/** An organization's proration choice and portal pause switch, as billing's subscription changes need them (plain JSON). */
export interface OrganizationProrationChoice {
  proration_behavior: ProrationBehavior;
  proration_behavior_upgrade: ProrationBehavior | null;
  proration_behavior_downgrade: ProrationBehavior | null;
  /** `customer_portal_settings.subscription.pause`: whether customers may pause and resume in the portal. */
  customer_portal_subscription_pause: boolean;
}

/**
 * What billing asks identity about an organization's settings: in-process in the embedded topology
 * (organization-proration.reader.ts), over signed RPC in the distributed one.
 */
export interface OrganizationSettingsReader {
  /** null: no such organization. */
  prorationChoice(organizationId: string): Promise<OrganizationProrationChoice | null>;
}

/** Served by identity at `POST /internal/organization-settings/<method>` in the distributed topology. */
export const ORGANIZATION_SETTINGS_RPC: RpcContract<OrganizationSettingsReader> = {
  prefix: '/internal/organization-settings',
  methods: { prorationChoice: true },
};
