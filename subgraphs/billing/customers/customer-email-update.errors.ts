import { DomainError, PolarRequestValidationError } from '../../../kit/errors.js';

/** Polar's answer to an e-mail change token that is unknown, used, replaced or older than 30 minutes (401). */
export class InvalidCustomerEmailUpdate extends DomainError {
  constructor() {
    super('InvalidCustomerEmailUpdate', 'This email update request is invalid or has expired.', 401);
  }
}

/** A refused e-mail change request, at `body.<field>` (Polar's 422 items). */
export function emailUpdateIssue(field: 'email' | 'token', msg: string, input: string): PolarRequestValidationError {
  return new PolarRequestValidationError([{ type: 'value_error', loc: ['body', field], msg, input }]);
}
