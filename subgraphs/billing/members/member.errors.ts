import { DomainError, NotPermitted, PolarRequestValidationError } from '../../../kit/errors.js';

/** Polar's member rules, with its texts (docs/members.md#merchant-api). */

/** 403: neither `member_model_enabled` nor `seat_based_pricing_enabled` is on. */
export const membersNotEnabled = () => new NotPermitted('Member management is not enabled for this organization');

/** 403: an individual customer has one member, its owner. */
export const individualHasOneMember = () =>
  new NotPermitted(
    'Individual customers can only have one member (the owner). Upgrade to a team customer to add more members.',
  );

/** 403: the portal's team is a team customer's. */
export const teamCustomersOnly = () =>
  new NotPermitted(
    'Member management is only available for team customers. Purchase a seat-based product to enable team features.',
  );

/** 422 at `loc`: one of the role, e-mail or self rules. */
export function memberRuleBroken(loc: (string | number)[], msg: string, input: unknown): PolarRequestValidationError {
  return new PolarRequestValidationError([{ type: 'value_error', loc, msg, input }]);
}

/** 409: the external customer id names customers of several of the caller's organizations (a user token). */
export const ambiguousExternalCustomerId = () =>
  new DomainError(
    'AmbiguousExternalCustomerID',
    'Several customers across your organizations share this external customer ID. Use an organization-scoped ' +
      'token, the Polar customer ID, or a unique external ID to disambiguate.',
    409,
  );
