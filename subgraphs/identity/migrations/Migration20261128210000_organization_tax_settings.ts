import { Migration } from '@mikro-orm/migrations';

/**
 * An organization's tax settings (beyond Polar; docs/tax-settings.md): legal name and address, its own tax id,
 * where it is registered to collect outside the EU, and whether Stripe Tax answers. One jsonb block, like
 * the other settings: it changes with the row and is never queried by its inner fields. Existing
 * organizations get the empty settings, which with no `country` means they collect no tax.
 */
export class Migration20261128210000_organization_tax_settings extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "identity"."organizations" add column "tax_settings" jsonb not null default '{"legal_name":null,"legal_address":null,"tax_id":null,"registrations":[],"stripe_tax_enabled":false}';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('alter table "identity"."organizations" drop column "tax_settings";');
  }
}
