import { PolarRequestValidationError } from '../../../kit/errors.js';

/** Which part of the buyer's address the tax needs: all of it, or the field that decides the place. */
export type MissingAddressPart = 'address' | 'postal_code' | 'state';

const MESSAGES: Record<MissingAddressPart, string> = {
  address: 'A billing address is required to compute tax.',
  postal_code: 'A postal code is required to compute tax for this country.',
  state: 'A state is required to compute tax for this country.',
};

/**
 * The seller collects tax and the buyer's address does not say where the buyer is. A 422 at the
 * checkout's billing address by default; a caller with another input re-issues it at its own `loc`.
 */
export class TaxAddressRequired extends PolarRequestValidationError {
  constructor(
    readonly part: MissingAddressPart,
    loc: (string | number)[] = ['body', 'customer_billing_address'],
  ) {
    super([{ type: 'missing', loc: part === 'address' ? loc : [...loc, part], msg: MESSAGES[part], input: null }]);
  }

  /** The same error at another billing-address `loc` (`['body', 'billing_address']`…). */
  at(loc: (string | number)[]): TaxAddressRequired {
    return new TaxAddressRequired(this.part, loc);
  }
}

/** Stripe Tax could not place the buyer from the address given (Stripe's `customer_tax_location_invalid`). */
export class TaxLocationInvalid extends PolarRequestValidationError {
  constructor(input: unknown = null, loc: (string | number)[] = ['body', 'customer_billing_address']) {
    super([
      {
        type: 'value_error',
        loc,
        msg: "We could not determine the customer's tax location based on the provided customer address.",
        input,
      },
    ]);
  }
}

/** Stripe Tax refused the buyer's tax id. */
export class TaxIdRefused extends PolarRequestValidationError {
  constructor(input: unknown = null, loc: (string | number)[] = ['body', 'customer_tax_id']) {
    super([{ type: 'value_error', loc, msg: 'Invalid tax ID.', input }]);
  }
}
