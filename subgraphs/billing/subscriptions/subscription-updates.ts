import { CustomerPortalSubscriptions } from './customer-portal-subscriptions.js';
import { RevokeSubscription } from './revoke-subscription.js';
import { NoPaymentMethodCharger, type SubscriptionCharger } from './subscription.charger.js';
import { recordSubscriptionEvents, type SubscriptionChangeRecorder } from './subscription.events.js';
import { UpdateSubscription } from './update-subscription.js';
import { PreviewSubscriptionUpdate } from './update-subscription-preview.js';
import type { ProrationSettingsSource } from './proration-settings.js';
import type { SaleTax } from '../orders/sale-tax.js';

/** The subscription write use cases, sharing one charger (the payments seam) and one event recorder. */
export interface SubscriptionUpdates {
  update: UpdateSubscription;
  preview: PreviewSubscriptionUpdate;
  revoke: RevokeSubscription;
  portal: CustomerPortalSubscriptions;
}

export function createSubscriptionUpdates(
  options: {
    charger?: SubscriptionCharger;
    recordEvents?: SubscriptionChangeRecorder;
    prorationSettings?: ProrationSettingsSource;
    tax?: SaleTax | null;
  } = {},
): SubscriptionUpdates {
  const deps = {
    charger: options.charger ?? new NoPaymentMethodCharger(),
    prorationSettings: options.prorationSettings ?? (async () => null),
    recordEvents: options.recordEvents ?? recordSubscriptionEvents,
    tax: options.tax ?? null,
  };
  return {
    update: new UpdateSubscription(deps),
    preview: new PreviewSubscriptionUpdate(deps),
    revoke: new RevokeSubscription(deps),
    portal: new CustomerPortalSubscriptions(deps),
  };
}
