import { Migration } from '@mikro-orm/migrations';
import { REASONS } from './Migration20261129070000_metric_rollups.js';

const FACTS = ['orders', 'subscriptions', 'checkouts'] as const;
type Fact = (typeof FACTS)[number];

/**
 * `source`: rows `(sign, <the table's row>)` for orders and checkouts, `(sign, s, dd)` for subscriptions (`s` the
 * row, `dd` a discount's values to use instead of its stored one, or null); `orgs`: the ready organizations
 * (`metric_rollup_ready`). Adds each row's contribution times its sign to its rollup: one upsert in the order of
 * the key (so concurrent writers lock rows in one order), keys whose sums are all zero left out.
 */
function upsertSql(table: Fact, source: string, orgs: string): string {
  if (table === 'orders') {
    const sums = [
      'sum(sign)',
      'sum(sign * (subtotal_amount - discount_amount))',
      'sum(sign * (subtotal_amount - discount_amount - platform_fee_amount - refunded_amount))',
    ];
    return `insert into billing.metric_rollup_orders as r
        (organization_id, hour, product_id, one_time, currency, orders, revenue, net_revenue)
      select organization_id, date_trunc('hour', created_at, 'UTC'), product_id, subscription_id is null, currency,
        ${sums.join(', ')}
      from ${source} c
      where status in ('paid', 'refunded', 'partially_refunded') and organization_id = any(${orgs})
      group by 1, 2, 3, 4, 5 having ${sums.map(sum => `${sum} <> 0`).join(' or ')} order by 1, 2, 3, 4, 5
      on conflict (organization_id, hour, product_id, one_time, currency) do update set
        orders = r.orders + excluded.orders, revenue = r.revenue + excluded.revenue,
        net_revenue = r.net_revenue + excluded.net_revenue`;
  }
  if (table === 'checkouts') {
    const sums = ['sum(sign)', "coalesce(sum(sign) filter (where status = 'succeeded'), 0)"];
    return `insert into billing.metric_rollup_checkouts as r
        (organization_id, hour, product_id, product_ids, checkouts, succeeded)
      select organization_id, date_trunc('hour', created_at, 'UTC'), product_id, product_ids, ${sums.join(', ')}
      from ${source} c
      where organization_id = any(${orgs})
      group by 1, 2, 3, 4 having ${sums.map(sum => `${sum} <> 0`).join(' or ')} order by 1, 2, 3, 4
      on conflict (organization_id, hour, product_id, product_ids) do update set
        checkouts = r.checkouts + excluded.checkouts, succeeded = r.succeeded + excluded.succeeded`;
  }
  const changes = ['active', 'committed', 'mrr_change', 'committed_mrr', 'trial_mrr', 'trial_committed_mrr'];
  const events = ['created', 'churned', 'canceled'];
  const sums = [
    ...[...changes, ...events].map(column => `sum(c.sign * x.${column})`),
    ...REASONS.map(r => `coalesce(sum(c.sign * x.canceled) filter (where x.reason = '${r}'), 0)`),
  ];
  const columns = ['active', 'committed', 'mrr', ...changes.slice(3), ...events, ...REASONS.map(r => `canceled_${r}`)];
  return `insert into billing.metric_rollup_subscriptions as r (organization_id, hour, product_id, ${columns.join(', ')})
    select (c.s).organization_id, x.hour, (c.s).product_id, ${sums.join(', ')}
    from ${source} c
    left join billing.discounts jd on jd.id = (c.s).discount_id
    cross join lateral billing.metric_rollup_subscription_rows(c.s,
      billing.metric_rollup_mrr(c.s, case when (c.dd).id is not null then c.dd else jd end)) x
    where (c.s).organization_id = any(${orgs})
    group by 1, 2, 3 having ${sums.map(sum => `${sum} <> 0`).join(' or ')} order by 1, 2, 3
    on conflict (organization_id, hour, product_id) do update set
      ${columns.map(column => `${column} = r.${column} + excluded.${column}`).join(', ')}`;
}

/** The rows of a transition table, signed, in the shape `upsertSql` reads. */
function signed(table: Fact, sign: 1 | -1, rows: string): string {
  return table === 'subscriptions'
    ? `select ${sign} as sign, t::billing.subscriptions as s, null::billing.discounts as dd from ${rows} t`
    : `select ${sign} as sign, t.* from ${rows} t`;
}

/**
 * The rollups' maintenance (docs/metrics.md#rollups): statement triggers on the orders, subscriptions and
 * checkouts add every changed row to its table's rollup (the old values taken off, the new ones added), so a
 * rollup changes in the same transaction as the facts, whatever wrote them (the one write path, the sandbox
 * clock's runners, a seed); a discount's change of amount or type re-adds its subscriptions with the new values.
 *
 * No backfill here: reading a large table inside the migration would hold the triggers' lock on it for the whole
 * read (docs/operations.md#migrations-that-keep-serving). The organizations with rows now are listed as not ready
 * (one index probe per organization), and `metric_rollup_backfill(org)`, run by the billing worker
 * (subgraphs/billing/metrics/metric-rollup-backfill.ts), adds each one's rows under its exclusive advisory lock;
 * until then its requests take the raw statements.
 */
export class Migration20261129070001_metric_rollup_triggers extends Migration {
  override async up(): Promise<void> {
    for (const table of FACTS) {
      const apply = (source: string, orgsOf: string) => `
          orgs := billing.metric_rollup_ready(array(${orgsOf}));
          ${upsertSql(table, `(${source})`, 'orgs')};`;
      const added = signed(table, 1, 'new_rows');
      const removed = signed(table, -1, 'old_rows');
      this.addSql(`create or replace function "billing"."metric_rollup_${table}_changed"() returns trigger
        language plpgsql as $$
        declare orgs uuid[];
        begin
          if TG_OP = 'INSERT' then ${apply(added, 'select distinct organization_id from new_rows')}
          elsif TG_OP = 'DELETE' then ${apply(removed, 'select distinct organization_id from old_rows')}
          else ${apply(
            `${added} union all ${removed}`,
            'select organization_id from new_rows union select organization_id from old_rows',
          )}
          end if;
          return null;
        end $$;`);
      const trigger = (event: string, tables: string) =>
        `create or replace trigger "metric_rollup_${table}_${event}" after ${event} on "billing"."${table}"
        referencing ${tables} for each statement execute function "billing"."metric_rollup_${table}_changed"();`;
      this.addSql(trigger('insert', 'new table as new_rows'));
      this.addSql(trigger('update', 'old table as old_rows new table as new_rows'));
      this.addSql(trigger('delete', 'old table as old_rows'));
    }
    const ofDiscount = (sign: 1 | -1, values: string) =>
      `select ${sign} as sign, s, ${values} as dd from billing.subscriptions s where s.discount_id = new.id`;
    this.addSql(`create or replace function "billing"."metric_rollup_discount_changed"() returns trigger
      language plpgsql as $$
      declare orgs uuid[];
      begin
        orgs := billing.metric_rollup_ready(array[new.organization_id]);
        ${upsertSql('subscriptions', `(${ofDiscount(-1, 'old')} union all ${ofDiscount(1, 'new')})`, 'orgs')};
        return null;
      end $$;`);
    this.addSql(`create or replace trigger "metric_rollup_discount_changed"
      after update of "type", "amount", "currency", "basis_points" on "billing"."discounts"
      for each row when (
        (old."type", old."amount", old."currency", old."basis_points")
          is distinct from (new."type", new."amount", new."currency", new."basis_points"))
      execute function "billing"."metric_rollup_discount_changed"();`);

    // The organizations that have rows now: a loose index scan of each table's (organization_id, …) index.
    const organizations = (table: string) => `select org from (
        with recursive o(org) as (
          (select organization_id from billing.${table} order by organization_id limit 1)
          union all select (select organization_id from billing.${table} where organization_id > o.org
            order by organization_id limit 1)
          from o where o.org is not null
        ) select org from o where org is not null) ${table}`;
    this.addSql(`insert into "billing"."metric_rollup_state" ("organization_id", "ready")
      select org, false from (${FACTS.map(organizations).join(' union ')}) x on conflict do nothing;`);

    // One organization's earlier rows, one statement per table, in the caller's transaction and under the
    // organization's exclusive lock: its writers wait for it, so none is counted twice or missed. False when it
    // was ready already.
    const whole = (table: Fact) =>
      upsertSql(
        table,
        table === 'subscriptions'
          ? '(select 1 as sign, t as s, null::billing.discounts as dd from billing.subscriptions t where t.organization_id = org)'
          : `(select 1 as sign, t.* from billing.${table} t where t.organization_id = org)`,
        'array[org]',
      );
    this.addSql(`create or replace function "billing"."metric_rollup_backfill"(org uuid) returns boolean
      language plpgsql as $$
      begin
        perform pg_advisory_xact_lock(hashtext('billing.metric_rollups'), hashtext(org::text));
        update billing.metric_rollup_state set ready = true where organization_id = org and not ready;
        if not found then return false; end if;
        ${FACTS.map(whole).join(';\n')};
        return true;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists "billing"."metric_rollup_backfill"(uuid);`);
    this.addSql(`drop trigger if exists "metric_rollup_discount_changed" on "billing"."discounts";`);
    this.addSql(`drop function if exists "billing"."metric_rollup_discount_changed"();`);
    for (const table of FACTS) {
      for (const event of ['insert', 'update', 'delete'])
        this.addSql(`drop trigger if exists "metric_rollup_${table}_${event}" on "billing"."${table}";`);
      this.addSql(`drop function if exists "billing"."metric_rollup_${table}_changed"();`);
    }
  }
}
