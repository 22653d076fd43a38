import { Migration } from '@mikro-orm/migrations';

/**
 * Checkout links (docs/selling.md): the shareable URLs that open a fresh checkout.
 * The client secret is unique (it is the public URL); lists read live links of an organization in
 * creation order.
 */
export class Migration20261124110000_checkout_links extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "billing"."checkout_links" (
      "id" uuid not null primary key,
      "organization_id" uuid not null,
      "client_secret" text not null unique,
      "product_ids" uuid[] not null check (cardinality("product_ids") >= 1),
      "discount_id" uuid null,
      "allow_discount_codes" boolean not null default true,
      "require_billing_address" boolean not null default false,
      "label" text null,
      "success_url" text null,
      "return_url" text null,
      "trial_interval" text null,
      "trial_interval_count" integer null,
      "metadata" jsonb not null default '{}',
      "created_at" timestamptz not null,
      "modified_at" timestamptz null,
      "deleted_at" timestamptz null
    );`);
    this.addSql(
      `create index if not exists "checkout_links_organization_created_idx" on "billing"."checkout_links" ("organization_id", "created_at", "id") where "deleted_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "billing"."checkout_links";');
  }
}
