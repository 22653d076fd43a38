import { Migration20261121000000_identity_initial } from './Migration20261121000000_identity_initial.js';

/** Listed explicitly (not globbed) so sources under Jest and the compiled dist/ run the same set. */
export const identityMigrations = [
  { name: 'Migration20261121000000_identity_initial', class: Migration20261121000000_identity_initial },
];
