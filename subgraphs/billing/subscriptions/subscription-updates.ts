import { CustomerPortalSubscriptions } from './customer-portal-subscriptions.js';
import { RevokeSubscription } from './revoke-subscription.js';
import { NoPaymentMethodCharger, type SubscriptionCharger } from './subscription.charger.js';
import { recordSubscriptionEvents, type SubscriptionChangeRecorder } from './subscription.events.js';
import { UpdateSubscription } from './update-subscription.js';

/** The subscription write use cases, sharing one charger (the payments seam) and one event recorder. */
export interface SubscriptionUpdates {
  update: UpdateSubscription;
  revoke: RevokeSubscription;
  portal: CustomerPortalSubscriptions;
}

export function createSubscriptionUpdates(
  options: { charger?: SubscriptionCharger; recordEvents?: SubscriptionChangeRecorder } = {},
): SubscriptionUpdates {
  const deps = {
    charger: options.charger ?? new NoPaymentMethodCharger(),
    recordEvents: options.recordEvents ?? recordSubscriptionEvents,
  };
  return {
    update: new UpdateSubscription(deps),
    revoke: new RevokeSubscription(deps),
    portal: new CustomerPortalSubscriptions(deps),
  };
}
