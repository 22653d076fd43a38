import { ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import { actsForOrganization, scopedOrganizationIds, soleOrganization } from '../../../kit/database/tenant-scope.js';
import { pageWindow, paginationOf, type PageRequest, type Pagination } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { eventColumns, filterSql, meterWhereSql } from '../meters/meter-sql.js';
import { parseFilter } from '../meters/meter-input.js';
import { meterRead } from '../meters/meter.read.js';
import type { Meter } from '../meters/meter.entity.js';
import { throwIfAny } from '../shared/issues.js';
import { metadataFilter } from '../shared/metadata-filter.js';
import { sortCriteria } from '../shared/sorting.js';
import { organizationNow } from '../time/organization-clocks.js';
import { EventNameRepository } from './event-name.repository.js';
import { eventNameLabel } from './event-type.type.js';
import { type IngestEvent, readIngestBody } from './ingest-body.validation.js';
import type { EventListFilterInput, EventNameFilterInput } from './usage-event.inputs.js';
import { type BatchDefaults, type IngestRow, UsageEventQueries } from './usage-event.queries.js';
import { usageEventRead, type UsageEventReadFilters } from './usage-event.read.js';
import {
  EVENT_DEFAULT_SORTING,
  EVENT_NAME_DEFAULT_SORTING,
  EVENT_NAME_SORT_KEYS,
  EVENT_SORT_KEYS,
} from './usage-event.sorting.js';
import { type EventNameType, EventsIngestResult, UsageEventType } from './usage-event.type.js';
import { eventIssues, storedMetadata } from './usage-event.validation.js';

const at = (index: number, field: string): (string | number)[] => ['body', 'events', index, field];

/**
 * An event as the ingest statement takes it: as sent, unless its metadata holds `_cost` or its organization is not the
 * batch's (then with that organization and its ingestion time). Most events are passed on without a copy.
 */
function ingestRow(event: IngestEvent, organizationId: string, ingestedAt: string, defaults: BatchDefaults): IngestRow {
  let row: IngestRow = event;
  if (event.metadata?._cost !== undefined) row = { ...row, metadata: storedMetadata(event.metadata) };
  if (organizationId !== defaults.organizationId)
    row = { ...row, organization_id: organizationId, ingested_at: ingestedAt };
  return row;
}

/**
 * Usage events (`/v1/events/`, docs/usage-events.md): the ingest (validated whole, then ONE statement), the list
 * and get through the read path, and the names with their counts.
 */
export class UsageEventService {
  /**
   * `body` is the request's `{"events": [...]}` as sent (REST and GraphQL alike): its shape is read and checked
   * here, once, then each event's rules; any problem is one 422 and nothing is inserted.
   */
  async ingest(ctx: RequestContext, body: unknown): Promise<EventsIngestResult> {
    const events = readIngestBody(body);
    const issues: ValidationIssue[] = [];
    const organizations = events.map((e, i) => this.organizationOf(ctx, e, i, issues));
    const named = [...new Set(organizations.filter((o): o is string => o !== null))];
    const clocks = new Map(await Promise.all(named.map(async o => [o, await organizationNow(ctx, o)] as const)));
    const queries = new UsageEventQueries(ctx.em);
    const customerIds = events.flatMap(e => (e.customer_id === undefined ? [] : [e.customer_id]));
    const live = await queries.liveCustomers(named, customerIds);
    // Every event's ingestion instant, by its organization's clock (`ingested_at`; the timestamp when it has none).
    const taken = new Map([...clocks].map(([o, now]) => [o, now.toISOString()]));
    const defaults: BatchDefaults = { organizationId: named[0], ingestedAt: taken.get(named[0])! };
    const rows: IngestRow[] = [];
    const months = new Set<string>();
    for (let index = 0; index < events.length; index++) {
      const event = events[index];
      const organizationId = organizations[index];
      const now = organizationId ? clocks.get(organizationId)! : new Date();
      const own = eventIssues(event, index, now);
      if (event.customer_id !== undefined && organizationId && !live.has(event.customer_id))
        own.push({
          type: 'customer_id',
          loc: at(index, 'customer_id'),
          msg: 'Customer not found.',
          input: event.customer_id,
        });
      if (own.length) issues.push(...own);
      if (own.length || !organizationId || issues.length) continue;
      const ingestedAt = taken.get(organizationId)!;
      months.add((event.timestamp ?? ingestedAt).slice(0, 7));
      rows.push(ingestRow(event, organizationId, ingestedAt, defaults));
    }
    throwIfAny(issues);
    if (!rows.length) return { inserted: 0, duplicates: 0 };
    await queries.ensurePartitions(months);
    const inserted = await queries.insertBatch(rows, defaults);
    return { inserted, duplicates: rows.length - inserted };
  }

  /** The organization an event is ingested for: the token's own, or `organization_id` for a user (Polar's rule). */
  private organizationOf(ctx: RequestContext, event: IngestEvent, index: number, issues: ValidationIssue[]) {
    const principal = ctx.principal;
    if (principal.subject === 'organization') {
      if (event.organization_id) {
        issues.push({
          type: 'organization_token',
          loc: at(index, 'organization_id'),
          msg: 'Setting organization_id is disallowed when using an organization token.',
          input: event.organization_id,
        });
        return null;
      }
      return principal.subjectId!;
    }
    const organizationId = event.organization_id ?? soleOrganization(principal);
    if (!organizationId) {
      issues.push({
        type: 'missing',
        loc: at(index, 'organization_id'),
        msg: 'organization_id is required.',
        input: null,
      });
      return null;
    }
    if (!actsForOrganization(principal, organizationId)) {
      issues.push({
        type: 'organization_id',
        loc: at(index, 'organization_id'),
        msg: 'Organization not found.',
        input: organizationId,
      });
      return null;
    }
    return organizationId;
  }

  async list(
    ctx: RequestContext,
    filter: EventListFilterInput | null,
    request: PageRequest & { sorting?: string[] | null },
  ): Promise<{ items: UsageEventType[]; pagination: Pagination }> {
    const filters = await this.readFilters(ctx, filter ?? {});
    const { rows, total } = await usageEventRead.page(
      ctx.em,
      ctx.principal,
      filters,
      sortCriteria(request.sorting ?? [], EVENT_SORT_KEYS, EVENT_DEFAULT_SORTING),
      pageWindow(request),
      { organizationIds: filter?.organizationId?.length ? filter.organizationId : null },
    );
    return { items: rows.map(UsageEventType.fromRow), pagination: paginationOf(total, request.limit) };
  }

  private async readFilters(ctx: RequestContext, f: EventListFilterInput): Promise<UsageEventReadFilters> {
    const e = eventColumns('e');
    const filters: UsageEventReadFilters = {};
    if (f.name?.length) filters.name = f.name;
    if (f.source?.length) filters.source = f.source;
    if (f.customerId?.length || f.externalCustomerId?.length)
      filters.customers = { ids: f.customerId ?? [], externalIds: f.externalCustomerId ?? [] };
    if (f.startTimestamp) filters.startTimestamp = f.startTimestamp;
    if (f.endTimestamp) filters.endTimestamp = f.endTimestamp;
    const metadata = metadataFilter(f.metadata);
    if (metadata && Object.keys(metadata).length) filters.metadata = metadata;
    if (f.filter) {
      const parsed = parseFilter(f.filter, ['query', 'filter']);
      throwIfAny(parsed.issues);
      filters.filter = filterSql(parsed.value!, e);
    }
    if (f.meterId) {
      // Polar: a meter the caller cannot read is a 404 of the list.
      const row = await meterRead.byId(ctx.em, ctx.principal, f.meterId);
      if (!row) throw new ResourceNotFound();
      const meter = row.m as Meter;
      filters.meter = meterWhereSql(meter, e);
    }
    if (f.depth != null || f.parentId)
      filters.tree = {
        ...(f.parentId ? { parentId: f.parentId } : {}),
        ...(f.depth != null ? { depth: f.depth } : {}),
      };
    return filters;
  }

  async get(ctx: RequestContext, id: string): Promise<UsageEventType> {
    const row = await usageEventRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return UsageEventType.fromRow(row);
  }

  async names(
    ctx: RequestContext,
    filter: EventNameFilterInput | null,
    request: PageRequest & { sorting?: string[] | null },
  ): Promise<{ items: EventNameType[]; pagination: Pagination }> {
    const organizationIds = scopedOrganizationIds(ctx.principal, undefined, filter?.organizationId);
    if (!organizationIds.length) return { items: [], pagination: paginationOf(0, request.limit) };
    const { rows, total } = await new EventNameRepository(ctx.em).page(
      {
        organizationIds,
        ...(filter?.customerId?.length || filter?.externalCustomerId?.length
          ? { customers: { ids: filter.customerId ?? [], externalIds: filter.externalCustomerId ?? [] } }
          : {}),
        source: filter?.source ?? undefined,
        query: filter?.query ?? undefined,
      },
      sortCriteria(request.sorting ?? [], EVENT_NAME_SORT_KEYS, EVENT_NAME_DEFAULT_SORTING),
      pageWindow(request),
    );
    return {
      items: rows.map(r => ({
        name: r.name,
        label: eventNameLabel(r),
        source: r.source,
        occurrences: r.occurrences,
        firstSeen: new Date(r.first_seen),
        lastSeen: new Date(r.last_seen),
      })),
      pagination: paginationOf(total, request.limit),
    };
  }
}
