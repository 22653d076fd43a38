import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS } from '../../../kit/database/tenant-scope.js';
import { customerJson } from '../customers/customer.read.js';
import type { Sql } from '../meters/meter-sql.js';
import { eventCustomerCondition, eventMetadataCondition, eventTreeCondition } from '../meters/event-conditions.js';
import { UsageEvent } from './usage-event.entity.js';

export interface UsageEventReadFilters {
  name?: string[];
  source?: string[];
  customers?: { ids: string[]; externalIds: string[] };
  startTimestamp?: Date;
  endTimestamp?: Date;
  metadata?: Record<string, readonly string[]>;
  /** A meter's events, or a `filter` query: compiled by meters/meter-sql.ts. */
  meter?: Sql;
  filter?: Sql;
  tree?: { parentId?: string; depth?: number };
}

const compiled = { where: (v: Sql) => v.sql, values: (v: Sql) => v.values };

/**
 * Usage events (`/v1/events/`): one statement per page, each row the event's JSON, its customer (by id, or by
 * external id within the organization: an event may name a customer created after it), its label (the event
 * type's, or the metadata value its selector names) and its number of direct children.
 */
export const usageEventRead = new ReadModel<UsageEventReadFilters>({
  name: 'usage_events',
  from: 'billing.usage_events e',
  alias: 'e',
  readers: CORE_READERS,
  tenant: { organization: 'e.organization_id' },
  select: {
    ev: entityJson(UsageEvent, 'e'),
    customer: em =>
      `(select ${customerJson('c')(em)} from billing.customers c where c.organization_id = e.organization_id and
        (c.id = e.customer_id or (e.customer_id is null and c.external_id = e.external_customer_id and c.deleted_at is null))
        order by c.id = e.customer_id desc limit 1)`,
    label: `(select coalesce(e.metadata #>> string_to_array(t.label_property_selector, '.'), t.label)
      from billing.event_types t where t.organization_id = e.organization_id and t.name = e.name)`,
    child_count: '(select count(*)::int from billing.usage_events k where k.parent_id = e.id)',
  },
  filters: {
    name: { where: 'e.name = any(?::text[])' },
    source: { where: 'e.source = any(?::text[])' },
    customers: {
      where: c => eventCustomerCondition(c.ids, c.externalIds).sql,
      values: c => eventCustomerCondition(c.ids, c.externalIds).values,
    },
    startTimestamp: { where: 'e.timestamp >= ?::timestamptz' },
    endTimestamp: { where: 'e.timestamp <= ?::timestamptz' },
    metadata: { where: m => eventMetadataCondition(m).sql, values: m => eventMetadataCondition(m).values },
    meter: compiled,
    filter: compiled,
    tree: { where: t => eventTreeCondition(t).sql, values: t => eventTreeCondition(t).values },
  },
  sorts: { timestamp: { sql: 'e.timestamp' } },
  tieBreaker: 'id',
});
