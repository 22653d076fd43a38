import { PolarRequestValidationError } from '../../../kit/errors.js';

export class DiscountCodeTaken extends PolarRequestValidationError {
  constructor(code: string) {
    super([
      { type: 'value_error', loc: ['body', 'code'], msg: 'Discount with this code already exists.', input: code },
    ]);
  }
}
