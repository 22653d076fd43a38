import type { RequestContext } from '../../../kit/request-context.js';
import type { OrganizationDirectory } from '../../identity/contract.js';
import {
  CancelSubscriptionNotAllowed,
  UpdateSubscriptionPlanNotAllowed,
  UpdateSubscriptionSeatsNotAllowed,
} from './portal-settings.errors.js';
import { soleOrganization } from '../../../kit/database/tenant-scope.js';

/** What a customer may do in the portal, each gated by the organization's `customer_portal_settings.subscription`. */
export type PortalAction = 'cancel' | 'update_plan' | 'update_seats';

const REFUSALS: Record<PortalAction, () => Error> = {
  cancel: () => new CancelSubscriptionNotAllowed(),
  update_plan: () => new UpdateSubscriptionPlanNotAllowed(),
  update_seats: () => new UpdateSubscriptionSeatsNotAllowed(),
};

/**
 * The organization's choice of what its customers may do in the portal, enforced by the Customer Portal
 * API (the pages only hide what this refuses). The settings live in identity and are read through its
 * published `OrganizationDirectory`; a subgraph started without one (billing alone in unit tests) allows
 * everything, which is each setting's default. Call before the change's transaction.
 */
export class PortalSettingsPolicy {
  constructor(private readonly organizations: OrganizationDirectory | null) {}

  async assertAllowed(ctx: RequestContext, action: PortalAction): Promise<void> {
    if (!this.organizations) return;
    const organizationId = soleOrganization(ctx.principal);
    if (!organizationId) return;
    const profile = await this.organizations.profile(organizationId);
    const allowed = profile?.customerPortalSettings.subscription[action] ?? true;
    if (allowed === false) throw REFUSALS[action]();
  }
}
