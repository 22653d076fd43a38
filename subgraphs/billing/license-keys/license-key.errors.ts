import { BadRequest, DomainError, NotPermitted, ResourceNotFound } from '../../../kit/errors.js';

/**
 * Polar's answers to a key that cannot be used (server/polar/license_key/service.py), word for word:
 * validate answers 404 (and 400 for usage), activate 403. A key that does not exist in the organization,
 * or an unknown activation, is the plain 404 `Not found`.
 */
export const LicenseKeyErrors = {
  notFound: () => new ResourceNotFound(),
  // validate
  inactive: () => new ResourceNotFound('License key is no longer active.'),
  expired: () => new ResourceNotFound('License key has expired.'),
  conditionsMismatch: () => new ResourceNotFound('License key does not match required conditions'),
  benefitMismatch: () => new ResourceNotFound('License key does not match given benefit.'),
  customerMismatch: () => new ResourceNotFound('License key does not match given user.'),
  usageExceeded: (remaining: number) => new BadRequest(`License key only has ${remaining} more usages.`),
  // activate
  activateInactive: () => new NotPermitted('License key is no longer active. This license key can not be activated.'),
  activateExpired: () => new NotPermitted('License key has expired.'),
  noActivations: () =>
    new NotPermitted(
      'This license key does not support activations. Use the /validate endpoint instead to check license validity.',
    ),
  activationLimit: () => new NotPermitted('License key activation limit already reached'),
  // rotate
  rotateNotPermitted: (status: string) => new RotateNotPermitted(status),
};

/** 400: only `disabled` and `granted` keys rotate; Polar's words, its status included. */
export class RotateNotPermitted extends DomainError {
  constructor(status: string) {
    super(
      'RotateNotPermitted',
      `License key cannot be rotated in its current status. Current status: ${status}. Allowed statuses: disabled, granted.`,
      400,
    );
  }
}
