import { Migration20261121000000_identity_initial } from './Migration20261121000000_identity_initial.js';
import { Migration20261121120000_oauth2 } from './Migration20261121120000_oauth2.js';
import { Migration20261123000000_oauth2_application_type } from './Migration20261123000000_oauth2_application_type.js';
import { Migration20261125110000_owner_notices } from './Migration20261125110000_owner_notices.js';
import { Migration20261127100000_work_notifications } from './Migration20261127100000_work_notifications.js';
import { Migration20261128210000_organization_tax_settings } from './Migration20261128210000_organization_tax_settings.js';
import { Migration20261129100000_member_invitations } from './Migration20261129100000_member_invitations.js';

/** Listed explicitly (not globbed) so sources under Jest and the compiled dist/ run the same set. */
export const identityMigrations = [
  { name: 'Migration20261121000000_identity_initial', class: Migration20261121000000_identity_initial },
  { name: 'Migration20261121120000_oauth2', class: Migration20261121120000_oauth2 },
  { name: 'Migration20261123000000_oauth2_application_type', class: Migration20261123000000_oauth2_application_type },
  { name: 'Migration20261125110000_owner_notices', class: Migration20261125110000_owner_notices },
  { name: 'Migration20261127100000_work_notifications', class: Migration20261127100000_work_notifications },
  {
    name: 'Migration20261128210000_organization_tax_settings',
    class: Migration20261128210000_organization_tax_settings,
  },
  { name: 'Migration20261129100000_member_invitations', class: Migration20261129100000_member_invitations },
];
