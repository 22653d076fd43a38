import type { Sql } from './meter-sql.js';

/**
 * The events `e` of customers named by id or by external id, as Polar matches them: an event names its customer
 * by `customer_id` or by `external_customer_id`, and a customer named either way matches both (the customer
 * looked up within the event's own organization). SQL text only; the read model and meters bind it.
 */
export function eventCustomerCondition(ids: readonly string[], externalIds: readonly string[]): Sql {
  return {
    sql: `(e.customer_id = any(?::uuid[]) or e.external_customer_id = any(?::text[])
      or e.customer_id in (select c.id from billing.customers c where c.organization_id = e.organization_id and c.external_id = any(?::text[]))
      or e.external_customer_id in (select c.external_id from billing.customers c where c.organization_id = e.organization_id and c.id = any(?::uuid[]) and c.external_id is not null))`,
    values: [[...ids], [...externalIds], [...externalIds], [...ids]],
  };
}

/** Metadata `key → accepted values` as a condition on the events `e` (text comparison, as Polar's lists). */
export function eventMetadataCondition(metadata: Record<string, readonly string[]>): Sql {
  const entries = Object.entries(metadata);
  if (!entries.length) return { sql: 'true', values: [] };
  return {
    sql: entries.map(() => '(e.metadata ->> ?) = any(?::text[])').join(' and '),
    values: entries.flatMap(([key, values]) => [key, [...values]]),
  };
}

/**
 * Events by their place in a tree of parents (Polar's `parent_id` and `depth`): without `depth`, the direct
 * children of `parentId`; with it, the levels 0..depth below the roots of the organization, or 1..depth below
 * `parentId`. One recursive walk down `parent_id`.
 */
export function eventTreeCondition(tree: { parentId?: string; depth?: number }): Sql {
  if (tree.depth === undefined) return { sql: 'e.parent_id = ?::uuid', values: [tree.parentId] };
  const anchor = tree.parentId
    ? { sql: 'a.parent_id = ?::uuid', values: [tree.parentId] as unknown[], first: 1 }
    : { sql: 'a.parent_id is null', values: [] as unknown[], first: 0 };
  return {
    sql: `e.id in (with recursive tree(id, level) as (
      select a.id, ${anchor.first} from billing.usage_events a where a.organization_id = e.organization_id and ${anchor.sql}
      union all select c.id, t.level + 1 from billing.usage_events c join tree t on c.parent_id = t.id where t.level < ?::int)
      select id from tree)`,
    values: [...anchor.values, tree.depth],
  };
}
