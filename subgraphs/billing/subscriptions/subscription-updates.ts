import { CustomerPortalSubscriptions } from './customer-portal-subscriptions.js';
import { RevokeSubscription } from './revoke-subscription.js';
import { NoPaymentMethodCharger, type SubscriptionCharger } from './subscription.charger.js';
import { recordSubscriptionEvent } from './subscription.events.js';
import { UpdateSubscription, type SubscriptionEventRecorder } from './update-subscription.js';

/** The subscription write use cases, sharing one charger (the payments seam) and one event recorder. */
export interface SubscriptionUpdates {
  update: UpdateSubscription;
  revoke: RevokeSubscription;
  portal: CustomerPortalSubscriptions;
}

export function createSubscriptionUpdates(options: { charger?: SubscriptionCharger; recordEvent?: SubscriptionEventRecorder } = {}): SubscriptionUpdates {
  const deps = { charger: options.charger ?? new NoPaymentMethodCharger(), recordEvent: options.recordEvent ?? recordSubscriptionEvent };
  return { update: new UpdateSubscription(deps), revoke: new RevokeSubscription(deps), portal: new CustomerPortalSubscriptions(deps) };
}
