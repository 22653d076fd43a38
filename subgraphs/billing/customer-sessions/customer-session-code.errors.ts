import { DomainError } from '../../../kit/errors.js';

/** Polar's answer to a code that is unknown, used, or older than 30 minutes (401). */
export class CustomerSessionCodeInvalidOrExpired extends DomainError {
  constructor() {
    super('CustomerSessionCodeInvalidOrExpired', 'This customer session code is invalid or has expired.', 401);
  }
}
