import { PolarRequestValidationError } from '../../../kit/errors.js';

export class CustomerEmailTaken extends PolarRequestValidationError {
  constructor(email: string) {
    super([
      {
        type: 'value_error',
        loc: ['body', 'email'],
        msg: 'A customer with this email address already exists.',
        input: email,
      },
    ]);
  }
}

export class CustomerExternalIdTaken extends PolarRequestValidationError {
  constructor(externalId: string) {
    super([
      {
        type: 'value_error',
        loc: ['body', 'external_id'],
        msg: 'A customer with this external ID already exists.',
        input: externalId,
      },
    ]);
  }
}

export class CustomerExternalIdImmutable extends PolarRequestValidationError {
  constructor(externalId: string | null) {
    super([
      {
        type: 'value_error',
        loc: ['body', 'external_id'],
        msg: 'Customer external ID cannot be updated.',
        input: externalId,
      },
    ]);
  }
}

export class CustomerTypeDowngrade extends PolarRequestValidationError {
  constructor(type: string) {
    super([
      {
        type: 'value_error',
        loc: ['body', 'type'],
        msg: 'Customer type can only be changed from individual to team.',
        input: type,
      },
    ]);
  }
}

/** A customer session asked for a customer the caller cannot see (docs/polar/resources.md#customer-session). */
export class CustomerDoesNotExist extends PolarRequestValidationError {
  constructor(field: 'customer_id' | 'external_customer_id', input: string) {
    super([{ type: 'value_error', loc: ['body', field], msg: 'Customer does not exist.', input }]);
  }
}
