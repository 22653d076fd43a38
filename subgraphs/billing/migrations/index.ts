import { Migration20261121130000_billing_initial } from './Migration20261121130000_billing_initial.js';
import { Migration20261121140000_subscription_indexes } from './Migration20261121140000_subscription_indexes.js';
import { Migration20261121150000_discount_codes } from './Migration20261121150000_discount_codes.js';
import { Migration20261123150000_test_payment_processor } from './Migration20261123150000_test_payment_processor.js';
import { Migration20261123160000_read_path_indexes } from './Migration20261123160000_read_path_indexes.js';
import { Migration20261123170000_sandbox_clocks } from './Migration20261123170000_sandbox_clocks.js';
import { Migration20261123170000_selling } from './Migration20261123170000_selling.js';
import { Migration20261124100000_refunds_invoices } from './Migration20261124100000_refunds_invoices.js';
import { Migration20261124110000_checkout_links } from './Migration20261124110000_checkout_links.js';
import { Migration20261124160000_license_keys } from './Migration20261124160000_license_keys.js';
import { Migration20261124160100_files } from './Migration20261124160100_files.js';
import { Migration20261124140000_plan_changes } from './Migration20261124140000_plan_changes.js';
import { Migration20261124120000_default_payment_method } from './Migration20261124120000_default_payment_method.js';
import { Migration20261124120001_checkout_expiry } from './Migration20261124120001_checkout_expiry.js';
import { Migration20261124120002_discount_redemptions } from './Migration20261124120002_discount_redemptions.js';
import { Migration20261124150000_benefits } from './Migration20261124150000_benefits.js';
import { Migration20261124130000_renewals } from './Migration20261124130000_renewals.js';
import { Migration20261128100000_customer_emails } from './Migration20261128100000_customer_emails.js';
import { Migration20261124170000_outgoing_emails } from './Migration20261124170000_outgoing_emails.js';
import { Migration20261124190000_subscription_counts_on_change } from './Migration20261124190000_subscription_counts_on_change.js';
import { Migration20261125100000_processor_events } from './Migration20261125100000_processor_events.js';
import { Migration20261125110000_owner_notices } from './Migration20261125110000_owner_notices.js';
import { Migration20261126100000_metadata_terms_index } from './Migration20261126100000_metadata_terms_index.js';
import { Migration20261124180000_grant_user_provided_key } from './Migration20261124180000_grant_user_provided_key.js';
import { Migration20261127100000_sandbox_clock_lease } from './Migration20261127100000_sandbox_clock_lease.js';
import { Migration20261127100000_work_notifications } from './Migration20261127100000_work_notifications.js';
import { Migration20261128100000_three_d_secure } from './Migration20261128100000_three_d_secure.js';
import { Migration20261128120000_cancel_abandoned_charge } from './Migration20261128120000_cancel_abandoned_charge.js';
import { Migration20261128130000_setup_metadata } from './Migration20261128130000_setup_metadata.js';
import { Migration20261128200000_order_tax } from './Migration20261128200000_order_tax.js';
import { Migration20261128210000_checkout_tax } from './Migration20261128210000_checkout_tax.js';
import { Migration20261128220000_payment_trigger } from './Migration20261128220000_payment_trigger.js';
import { Migration20261128221000_downloadable_downloads } from './Migration20261128221000_downloadable_downloads.js';
import { Migration20261128230000_order_item_periods } from './Migration20261128230000_order_item_periods.js';
import { Migration20261128231000_customer_seats } from './Migration20261128231000_customer_seats.js';
import { Migration20261128232000_disputes } from './Migration20261128232000_disputes.js';
import { Migration20261128232001_custom_fields } from './Migration20261128232001_custom_fields.js';
import { Migration20261128232002_product_custom_fields } from './Migration20261128232002_product_custom_fields.js';
import { Migration20261128232003_subscription_custom_field_data } from './Migration20261128232003_subscription_custom_field_data.js';
import { Migration20261128233000_product_deleted_at } from './Migration20261128233000_product_deleted_at.js';
import { Migration20261128233100_customer_email_verifications } from './Migration20261128233100_customer_email_verifications.js';
import { Migration20261129010000_members } from './Migration20261129010000_members.js';
import { Migration20261129010001_seat_holder_grants } from './Migration20261129010001_seat_holder_grants.js';
import { Migration20261129040000_usage_events } from './Migration20261129040000_usage_events.js';
import { Migration20261129050000_metric_dashboards } from './Migration20261129050000_metric_dashboards.js';
import { Migration20261129050001_metric_indexes } from './Migration20261129050001_metric_indexes.js';
import { Migration20261129020000_customer_wallets } from './Migration20261129020000_customer_wallets.js';
import { Migration20261129030000_review_read_indexes } from './Migration20261129030000_review_read_indexes.js';
import { Migration20261129060000_metered_prices } from './Migration20261129060000_metered_prices.js';
import { Migration20261129060001_billing_entries } from './Migration20261129060001_billing_entries.js';
import { Migration20261129060002_customer_meters } from './Migration20261129060002_customer_meters.js';
import { Migration20261129050500_card_reminders_per_card } from './Migration20261129050500_card_reminders_per_card.js';
import { Migration20261129060100_usage_billing_visibility } from './Migration20261129060100_usage_billing_visibility.js';
import { Migration20261129070000_metric_rollups } from './Migration20261129070000_metric_rollups.js';
import { Migration20261129070001_metric_rollup_triggers } from './Migration20261129070001_metric_rollup_triggers.js';

/** Listed explicitly (not globbed) so sources under Jest and the compiled dist/ run the same set. */
export const billingMigrations = [
  { name: 'Migration20261121130000_billing_initial', class: Migration20261121130000_billing_initial },
  { name: 'Migration20261121140000_subscription_indexes', class: Migration20261121140000_subscription_indexes },
  { name: 'Migration20261121150000_discount_codes', class: Migration20261121150000_discount_codes },
  { name: 'Migration20261123150000_test_payment_processor', class: Migration20261123150000_test_payment_processor },
  { name: 'Migration20261123160000_read_path_indexes', class: Migration20261123160000_read_path_indexes },
  { name: 'Migration20261123170000_sandbox_clocks', class: Migration20261123170000_sandbox_clocks },
  { name: 'Migration20261123170000_selling', class: Migration20261123170000_selling },
  { name: 'Migration20261124100000_refunds_invoices', class: Migration20261124100000_refunds_invoices },
  { name: 'Migration20261124110000_checkout_links', class: Migration20261124110000_checkout_links },
  { name: 'Migration20261124160000_license_keys', class: Migration20261124160000_license_keys },
  { name: 'Migration20261124160100_files', class: Migration20261124160100_files },
  { name: 'Migration20261124140000_plan_changes', class: Migration20261124140000_plan_changes },
  { name: 'Migration20261124120000_default_payment_method', class: Migration20261124120000_default_payment_method },
  { name: 'Migration20261124120001_checkout_expiry', class: Migration20261124120001_checkout_expiry },
  { name: 'Migration20261124120002_discount_redemptions', class: Migration20261124120002_discount_redemptions },
  { name: 'Migration20261124130000_renewals', class: Migration20261124130000_renewals },
  { name: 'Migration20261124150000_benefits', class: Migration20261124150000_benefits },
  { name: 'Migration20261124170000_outgoing_emails', class: Migration20261124170000_outgoing_emails },
  { name: 'Migration20261124180000_grant_user_provided_key', class: Migration20261124180000_grant_user_provided_key },
  {
    name: 'Migration20261124190000_subscription_counts_on_change',
    class: Migration20261124190000_subscription_counts_on_change,
  },
  { name: 'Migration20261125100000_processor_events', class: Migration20261125100000_processor_events },
  { name: 'Migration20261125110000_owner_notices', class: Migration20261125110000_owner_notices },
  { name: 'Migration20261126100000_metadata_terms_index', class: Migration20261126100000_metadata_terms_index },
  { name: 'Migration20261127100000_sandbox_clock_lease', class: Migration20261127100000_sandbox_clock_lease },
  { name: 'Migration20261127100000_work_notifications', class: Migration20261127100000_work_notifications },
  { name: 'Migration20261128100000_three_d_secure', class: Migration20261128100000_three_d_secure },
  { name: 'Migration20261128100000_customer_emails', class: Migration20261128100000_customer_emails },
  { name: 'Migration20261128120000_cancel_abandoned_charge', class: Migration20261128120000_cancel_abandoned_charge },
  { name: 'Migration20261128130000_setup_metadata', class: Migration20261128130000_setup_metadata },
  { name: 'Migration20261128200000_order_tax', class: Migration20261128200000_order_tax },
  { name: 'Migration20261128210000_checkout_tax', class: Migration20261128210000_checkout_tax },
  { name: 'Migration20261128220000_payment_trigger', class: Migration20261128220000_payment_trigger },
  { name: 'Migration20261128221000_downloadable_downloads', class: Migration20261128221000_downloadable_downloads },
  { name: 'Migration20261128230000_order_item_periods', class: Migration20261128230000_order_item_periods },
  { name: 'Migration20261128231000_customer_seats', class: Migration20261128231000_customer_seats },
  { name: 'Migration20261128232000_disputes', class: Migration20261128232000_disputes },
  { name: 'Migration20261128232001_custom_fields', class: Migration20261128232001_custom_fields },
  { name: 'Migration20261128232002_product_custom_fields', class: Migration20261128232002_product_custom_fields },
  {
    name: 'Migration20261128232003_subscription_custom_field_data',
    class: Migration20261128232003_subscription_custom_field_data,
  },
  { name: 'Migration20261128233000_product_deleted_at', class: Migration20261128233000_product_deleted_at },
  {
    name: 'Migration20261128233100_customer_email_verifications',
    class: Migration20261128233100_customer_email_verifications,
  },
  { name: 'Migration20261129010000_members', class: Migration20261129010000_members },
  { name: 'Migration20261129010001_seat_holder_grants', class: Migration20261129010001_seat_holder_grants },
  { name: 'Migration20261129040000_usage_events', class: Migration20261129040000_usage_events },
  { name: 'Migration20261129050000_metric_dashboards', class: Migration20261129050000_metric_dashboards },
  { name: 'Migration20261129050001_metric_indexes', class: Migration20261129050001_metric_indexes },
  { name: 'Migration20261129020000_customer_wallets', class: Migration20261129020000_customer_wallets },
  { name: 'Migration20261129030000_review_read_indexes', class: Migration20261129030000_review_read_indexes },
  { name: 'Migration20261129060000_metered_prices', class: Migration20261129060000_metered_prices },
  { name: 'Migration20261129060001_billing_entries', class: Migration20261129060001_billing_entries },
  { name: 'Migration20261129060002_customer_meters', class: Migration20261129060002_customer_meters },
  { name: 'Migration20261129050500_card_reminders_per_card', class: Migration20261129050500_card_reminders_per_card },
  {
    name: 'Migration20261129060100_usage_billing_visibility',
    class: Migration20261129060100_usage_billing_visibility,
  },
  { name: 'Migration20261129070000_metric_rollups', class: Migration20261129070000_metric_rollups },
  { name: 'Migration20261129070001_metric_rollup_triggers', class: Migration20261129070001_metric_rollup_triggers },
];
