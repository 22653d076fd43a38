import { DomainError } from '../../../kit/errors.js';

/** Polar's answers when the organization's customer portal settings forbid a change (403). */
export class UpdateSubscriptionPlanNotAllowed extends DomainError {
  constructor() {
    super('UpdateSubscriptionPlanNotAllowed', 'Updating subscription plan is not allowed.', 403);
  }
}

export class UpdateSubscriptionSeatsNotAllowed extends DomainError {
  constructor() {
    super('UpdateSubscriptionSeatsNotAllowed', 'Updating subscription seats is not allowed.', 403);
  }
}

/** Beyond Polar (`customer_portal_settings.subscription.cancel: false`), in Polar's style. */
export class CancelSubscriptionNotAllowed extends DomainError {
  constructor() {
    super('CancelSubscriptionNotAllowed', 'Canceling the subscription is not allowed.', 403);
  }
}
