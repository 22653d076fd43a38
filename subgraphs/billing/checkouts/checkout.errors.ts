import { DomainError } from '../../../kit/errors.js';

/** 403: confirming or updating a checkout that is no longer open (Polar's NotOpenCheckout). */
export class NotOpenCheckout extends DomainError {
  constructor(id: string, status: string) {
    super('NotOpenCheckout', `Checkout ${id} is not open: ${status}`, 403);
  }
}

/** 410: the checkout's `expires_at` has passed (Polar's ExpiredCheckoutError). */
export class ExpiredCheckoutError extends DomainError {
  constructor() {
    super('ExpiredCheckoutError', 'This checkout session has expired.', 410);
  }
}
