import { Migration } from '@mikro-orm/migrations';

/**
 * The subscription list's `metadata[k]=v` filter answers from an index that needs no recheck.
 *
 * The GIN (jsonb_path_ops) index on `{"<organization id>": metadata}` that this replaces kept only
 * hashes of paths, so PostgreSQL rechecked every match by rebuilding that object and testing
 * containment: at a million subscriptions, where a third match `plan=gold`, the exact `count(*)` took
 * 1.2-1.8 s, almost all of it the recheck. Now each subscription has one text term per metadata entry,
 * `<organization id>:<key as JSON>=<value as JSON>` (the organization keeps the index tenant-keyed, the
 * JSON encoding keeps the key and value apart whatever they contain), in a GIN array index whose `&&`
 * is exact: the same count takes about 0.3 s. A term over 256 bytes (a long value) is stored as
 * `md5:<hash of the term>`, so no entry can outgrow a GIN key; the list's filter builds its terms with
 * the same function, so both sides agree. The filter keeps `organization_id = …` beside the index
 * condition, so even a hash collision could never reach another tenant's row.
 */
export class Migration20261126100000_metadata_terms_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create or replace function "billing"."tenant_metadata_terms"(organization_id uuid, metadata jsonb) returns text[]
         language sql immutable parallel safe as $$
           select coalesce(array_agg(case when octet_length(t) > 256 then 'md5:' || md5(t) else t end), '{}')
             from (select organization_id::text || ':' || to_jsonb(e.key)::text || '=' || e.value::text as t
                     from jsonb_each(case when jsonb_typeof(metadata) = 'object' then metadata else '{}' end) e) terms
         $$;`,
    );
    // The filter's side: every (organization, candidate object) pair's terms, in one array.
    this.addSql(
      `create or replace function "billing"."tenant_metadata_filter_terms"(organization_ids uuid[], candidates jsonb) returns text[]
         language sql immutable parallel safe as $$
           select coalesce(array_agg(t), '{}')
             from unnest(organization_ids) o, jsonb_array_elements(candidates) c,
                  unnest("billing"."tenant_metadata_terms"(o, c)) t
         $$;`,
    );
    this.addSql(
      `create index if not exists "subscriptions_tenant_metadata_terms_index" on "billing"."subscriptions" using gin ("billing"."tenant_metadata_terms"("organization_id", "metadata"));`,
    );
    this.addSql(`drop index if exists "billing"."subscriptions_tenant_metadata_gin_index";`);
    this.addSql(`drop function if exists "billing"."tenant_metadata"(uuid, jsonb);`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `create or replace function "billing"."tenant_metadata"(organization_id uuid, metadata jsonb) returns jsonb language sql immutable parallel safe as $$ select jsonb_build_object(organization_id::text, metadata) $$;`,
    );
    this.addSql(
      `create index if not exists "subscriptions_tenant_metadata_gin_index" on "billing"."subscriptions" using gin ("billing"."tenant_metadata"("organization_id", "metadata") jsonb_path_ops);`,
    );
    this.addSql(`drop index if exists "billing"."subscriptions_tenant_metadata_terms_index";`);
    this.addSql(`drop function if exists "billing"."tenant_metadata_filter_terms"(uuid[], jsonb);`);
    this.addSql(`drop function if exists "billing"."tenant_metadata_terms"(uuid, jsonb);`);
  }
}
