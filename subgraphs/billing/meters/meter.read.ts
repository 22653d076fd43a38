import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { containsPattern } from '../../../kit/database/read/values.js';
import { CORE_READERS } from '../../../kit/database/tenant-scope.js';
import { Meter } from './meter.entity.js';

export interface MeterReadFilters {
  query?: string;
  isArchived?: boolean;
  /** key → accepted values (text comparison, as Polar's `metadata[key]=value`). */
  metadata?: Record<string, readonly string[]>;
}

/** Meters (`/v1/meters/`): one statement per page, each row the meter's JSON. */
export const meterRead = new ReadModel<MeterReadFilters>({
  name: 'meters',
  from: 'billing.meters m',
  alias: 'm',
  readers: CORE_READERS,
  tenant: { organization: 'm.organization_id' },
  select: { m: entityJson(Meter, 'm') },
  filters: {
    query: { where: 'm.name ilike ?', values: text => [containsPattern(text)] },
    isArchived: {
      where: archived => (archived ? 'm.archived_at is not null' : 'm.archived_at is null'),
      values: () => [],
    },
    metadata: {
      where: metadata =>
        Object.keys(metadata)
          .map(() => '(m.metadata ->> ?) = any(?::text[])')
          .join(' and '),
      values: metadata => Object.entries(metadata).flatMap(([key, values]) => [key, [...values]]),
    },
  },
  sorts: {
    created_at: { sql: 'm.created_at' },
    name: { sql: 'm.name' },
  },
  tieBreaker: 'id',
  tieBreakerAscending: true,
});
