import { Migration } from '@mikro-orm/migrations';

/**
 * `subscription_counts` (Migration20261121140000_subscription_indexes) is touched by an update only when
 * a row moves between counters: its organization, status or `cancel_at_period_end` changed. Before,
 * every update of a subscription took the counter's row lock (-1 and +1 on the same row) until its
 * commit, so every concurrent write to one organization's subscriptions queued behind the others: the
 * renewal engine's lanes spent most of their time waiting on it (`Lock:transactionid` on the
 * subscription update in pg_stat_activity, bench target r). Renewals, period moves, metadata and
 * discount changes no longer lock it.
 */
export class Migration20261124190000_subscription_counts_on_change extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function "billing"."subscription_counts_apply"() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' then
    -- Only the rows whose counter changed; rows are locked in key order, so statements cannot deadlock.
    insert into billing.subscription_counts as c (organization_id, status, cancel_at_period_end, n)
      select organization_id, status, cancel_at_period_end, sum(d) from (
        select o.organization_id, o.status, o.cancel_at_period_end, -1 as d
          from old_rows o join new_rows n on n.id = o.id
          where (o.organization_id, o.status, o.cancel_at_period_end) is distinct from (n.organization_id, n.status, n.cancel_at_period_end)
        union all
        select n.organization_id, n.status, n.cancel_at_period_end, 1
          from old_rows o join new_rows n on n.id = o.id
          where (o.organization_id, o.status, o.cancel_at_period_end) is distinct from (n.organization_id, n.status, n.cancel_at_period_end)
      ) moved group by 1, 2, 3 order by 1, 2, 3
      on conflict (organization_id, status, cancel_at_period_end) do update set n = c.n + excluded.n;
  end if;
  if tg_op = 'DELETE' then
    insert into billing.subscription_counts as c (organization_id, status, cancel_at_period_end, n)
      select organization_id, status, cancel_at_period_end, -count(*) from old_rows group by 1, 2, 3 order by 1, 2, 3
      on conflict (organization_id, status, cancel_at_period_end) do update set n = c.n + excluded.n;
  end if;
  if tg_op = 'INSERT' then
    insert into billing.subscription_counts as c (organization_id, status, cancel_at_period_end, n)
      select organization_id, status, cancel_at_period_end, count(*) from new_rows group by 1, 2, 3 order by 1, 2, 3
      on conflict (organization_id, status, cancel_at_period_end) do update set n = c.n + excluded.n;
  end if;
  return null;
end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace function "billing"."subscription_counts_apply"() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    insert into billing.subscription_counts as c (organization_id, status, cancel_at_period_end, n)
      select organization_id, status, cancel_at_period_end, -count(*) from old_rows group by 1, 2, 3 order by 1, 2, 3
      on conflict (organization_id, status, cancel_at_period_end) do update set n = c.n + excluded.n;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into billing.subscription_counts as c (organization_id, status, cancel_at_period_end, n)
      select organization_id, status, cancel_at_period_end, count(*) from new_rows group by 1, 2, 3 order by 1, 2, 3
      on conflict (organization_id, status, cancel_at_period_end) do update set n = c.n + excluded.n;
  end if;
  return null;
end $$;`);
  }
}
