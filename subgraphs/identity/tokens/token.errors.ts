import { PolarRequestValidationError } from '../../../kit/errors.js';

export class InvalidScopes extends PolarRequestValidationError {
  constructor(invalid: string[], allowed: readonly string[]) {
    super(
      invalid.map(scope => ({
        type: 'enum',
        loc: ['body', 'scopes'],
        msg: `Input should be one of the available scopes (${allowed.length} of them).`,
        input: scope,
      })),
    );
  }
}

export class InvalidExpiry extends PolarRequestValidationError {
  constructor(input: string) {
    super([
      {
        type: 'duration_parsing',
        loc: ['body', 'expires_in'],
        msg: 'Input should be a valid ISO 8601 duration',
        input,
      },
    ]);
  }
}
