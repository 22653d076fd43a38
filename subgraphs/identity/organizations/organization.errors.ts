import { NotPermitted, PolarRequestValidationError } from '../../../kit/errors.js';

export class CannotManageOrganization extends NotPermitted {
  constructor() {
    super("You don't have permission to manage the organization");
  }
}

export class OrganizationSlugTaken extends PolarRequestValidationError {
  constructor(slug: string) {
    super([
      {
        type: 'value_error',
        loc: ['body', 'slug'],
        msg: 'An organization with this slug already exists.',
        input: slug,
      },
    ]);
  }
}
