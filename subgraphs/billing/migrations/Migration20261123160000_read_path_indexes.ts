import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes of the read path (docs/data-access.md): every filter of the subscription list
 * reaches only the caller's organization's rows, so its page and its `count(*)` cost what that
 * organization holds, never what other tenants hold.
 * - (organization_id, product_id | customer_id | discount_id | customer_cancellation_reason);
 * - metadata: a GIN (jsonb_path_ops) index on `{"<organization id>": metadata}`, queried with
 *   `billing.tenant_metadata(organization_id, metadata) @> {"<org>": {"k": v}}`: jsonb_path_ops
 *   hashes whole paths, so the organization is part of every key and the index returns that
 *   organization's matches only. It replaces the plain GIN on `metadata`, which returned every
 *   tenant's matches for PostgreSQL to filter out.
 */
export class Migration20261123160000_read_path_indexes extends Migration {
  override async up(): Promise<void> {
    for (const column of ['product_id', 'customer_id', 'discount_id', 'customer_cancellation_reason']) {
      this.addSql(
        `create index if not exists "subscriptions_organization_id_${column}_index" on "billing"."subscriptions" ("organization_id", "${column}");`,
      );
    }
    // jsonb_build_object is only STABLE (it takes "any"); for these argument types it is immutable.
    this.addSql(
      `create or replace function "billing"."tenant_metadata"(organization_id uuid, metadata jsonb) returns jsonb language sql immutable parallel safe as $$ select jsonb_build_object(organization_id::text, metadata) $$;`,
    );
    this.addSql(
      `create index if not exists "subscriptions_tenant_metadata_gin_index" on "billing"."subscriptions" using gin ("billing"."tenant_metadata"("organization_id", "metadata") jsonb_path_ops);`,
    );
    this.addSql(`drop index if exists "billing"."subscriptions_metadata_gin_index";`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `create index if not exists "subscriptions_metadata_gin_index" on "billing"."subscriptions" using gin ("metadata" jsonb_path_ops);`,
    );
    this.addSql(`drop index if exists "billing"."subscriptions_tenant_metadata_gin_index";`);
    this.addSql(`drop function if exists "billing"."tenant_metadata"(uuid, jsonb);`);
    for (const column of ['product_id', 'customer_id', 'discount_id', 'customer_cancellation_reason'])
      this.addSql(`drop index if exists "billing"."subscriptions_organization_id_${column}_index";`);
  }
}
