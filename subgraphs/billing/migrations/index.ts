import { Migration20261121130000_billing_initial } from './Migration20261121130000_billing_initial.js';

/** Listed explicitly (not globbed) so sources under Jest and the compiled dist/ run the same set. */
export const billingMigrations = [
  { name: 'Migration20261121130000_billing_initial', class: Migration20261121130000_billing_initial },
];
