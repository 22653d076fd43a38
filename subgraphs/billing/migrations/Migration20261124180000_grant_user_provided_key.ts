import { Migration } from '@mikro-orm/migrations';

/**
 * License-key grants were written with `user_provided_key: false`; Polar's BenefitGrantLicenseKeysProperties
 * has it as the string a customer supplied, absent otherwise, and the SDK refuses a boolean there (a
 * `benefit_grant.*` webhook or grant list failed to parse). Drops the boolean from the stored grants.
 */
export class Migration20261124180000_grant_user_provided_key extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `update "billing"."benefit_grants" set "properties" = "properties" - 'user_provided_key' where jsonb_typeof("properties" -> 'user_provided_key') = 'boolean';`,
    );
  }

  override async down(): Promise<void> {}
}
