import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../shared/sql.queries.js';
import { containsPattern } from '../../../kit/database/read/values.js';
import type { SortCriterion } from '../shared/sorting.js';
import { eventCustomerCondition } from '../meters/event-conditions.js';

export interface EventNameQuery {
  organizationIds: readonly string[];
  customers?: { ids: string[]; externalIds: string[] };
  source?: readonly string[];
  /** Part of the name (or the event type's label), any case. */
  query?: string;
  /** Only root events (no parent). */
  rootEvents?: boolean;
  /** Only the children of this event. */
  parentId?: string;
}

export interface EventNameRow {
  organization_id: string;
  name: string;
  source: string;
  occurrences: number;
  first_seen: Date;
  last_seen: Date;
  type_id: string | null;
  type_label: string | null;
  label_property_selector: string | null;
  type_created_at: Date | null;
  type_modified_at: Date | null;
  total: number;
}

const SORTS: Record<string, string> = {
  name: 's.name',
  label: 'coalesce(t.label, s.name)',
  occurrences: 's.occurrences',
  first_seen: 's.first_seen',
  last_seen: 's.last_seen',
};

/**
 * Event names with their statistics (`/v1/events/names`, `/v1/event-types/`): the events grouped by name and
 * source in ONE statement, each with its event type when it has one, and the total count as a window.
 */
export class EventNameRepository {
  constructor(private readonly em: EntityManager) {}

  async page(
    query: EventNameQuery,
    order: readonly SortCriterion<string>[],
    window: { limit: number; offset: number },
  ): Promise<{ rows: EventNameRow[]; total: number }> {
    const where = ['e.organization_id = any(?::uuid[])'];
    const values: unknown[] = [[...query.organizationIds]];
    if (query.customers) {
      const c = eventCustomerCondition(query.customers.ids, query.customers.externalIds);
      where.push(c.sql);
      values.push(...c.values);
    }
    if (query.source?.length) {
      where.push('e.source = any(?::text[])');
      values.push([...query.source]);
    }
    if (query.rootEvents) where.push('e.parent_id is null');
    if (query.parentId) {
      where.push('e.parent_id = ?::uuid');
      values.push(query.parentId);
    }
    const text = query.query ? 'where (s.name ilike ? or t.label ilike ?)' : '';
    if (query.query) values.push(containsPattern(query.query), containsPattern(query.query));
    const orderBy = [...order.map(o => `${SORTS[o.key]} ${o.direction}`), 's.name asc', 's.source asc'].join(', ');
    const rows = await sql<EventNameRow>(
      this.em,
      `with s as (
        select e.organization_id, e.name, e.source, count(*)::int as occurrences, min(e.timestamp) as first_seen,
          max(e.timestamp) as last_seen
        from billing.usage_events e where ${where.join(' and ')} group by 1, 2, 3)
      select s.*, t.id as type_id, t.label as type_label, t.label_property_selector, t.created_at as type_created_at,
        t.modified_at as type_modified_at, (count(*) over ())::int as total
      from s left join billing.event_types t on t.organization_id = s.organization_id and t.name = s.name and s.source = 'user'
      ${text} order by ${orderBy} limit ? offset ?`,
      [...values, window.limit, window.offset],
    );
    return { rows, total: rows[0]?.total ?? 0 };
  }
}
