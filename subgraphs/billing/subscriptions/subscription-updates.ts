import { CustomerPortalSubscriptions } from './customer-portal-subscriptions.js';
import { RevokeSubscription } from './revoke-subscription.js';
import { NoPaymentMethodCharger, type SubscriptionCharger } from './subscription.charger.js';
import { recordSubscriptionEvents, type SubscriptionChangeRecorder } from './subscription.events.js';
import { UpdateSubscription } from './update-subscription.js';
import { PreviewSubscriptionUpdate } from './update-subscription-preview.js';
import type { ProrationSettingsSource } from './proration-settings.js';

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
  } = {},
): SubscriptionUpdates {
  const deps = {
    charger: options.charger ?? new NoPaymentMethodCharger(),
    prorationSettings: options.prorationSettings ?? (async () => null),
    recordEvents: options.recordEvents ?? recordSubscriptionEvents,
  };
  return {
    update: new UpdateSubscription(deps),
    preview: new PreviewSubscriptionUpdate(deps),
    revoke: new RevokeSubscription(deps),
    portal: new CustomerPortalSubscriptions(deps),
  };
}
