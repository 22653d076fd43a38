import { Migration20261123160000_webhooks_initial } from './Migration20261123160000_webhooks_initial.js';
import { Migration20261125120000_notification_emails } from './Migration20261125120000_notification_emails.js';
import { Migration20261125130000_owner_notices } from './Migration20261125130000_owner_notices.js';
import { Migration20261127100000_work_notifications } from './Migration20261127100000_work_notifications.js';
import { Migration20261128190000_endpoint_api_versions } from './Migration20261128190000_endpoint_api_versions.js';
import { Migration20261129030001_deliveries_without_message_fk } from './Migration20261129030001_deliveries_without_message_fk.js';

/** Listed explicitly (not globbed) so sources under Jest and the compiled dist/ run the same set. */
export const webhooksMigrations = [
  { name: 'Migration20261123160000_webhooks_initial', class: Migration20261123160000_webhooks_initial },
  { name: 'Migration20261125120000_notification_emails', class: Migration20261125120000_notification_emails },
  { name: 'Migration20261125130000_owner_notices', class: Migration20261125130000_owner_notices },
  { name: 'Migration20261127100000_work_notifications', class: Migration20261127100000_work_notifications },
  { name: 'Migration20261128190000_endpoint_api_versions', class: Migration20261128190000_endpoint_api_versions },
  {
    name: 'Migration20261129030001_deliveries_without_message_fk',
    class: Migration20261129030001_deliveries_without_message_fk,
  },
];
