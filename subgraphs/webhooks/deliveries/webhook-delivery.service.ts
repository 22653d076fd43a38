import { scopedOrganizationIds } from '../../../kit/database/tenant-scope.js';
import { PolarRequestValidationError, ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import { pageWindow, paginationOf, totalFromPage, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { HTTP_CODE_CLASSES, WEBHOOK_EVENT_TYPES } from '../events/event-types.js';
import { pgArray } from '../shared-sql.js';
import type { WebhookDeliveryType } from './webhook-delivery.type.js';

export interface DeliveryFilters {
  endpointIds?: string[] | null;
  start?: Date | null;
  end?: Date | null;
  succeeded?: boolean | null;
  /** Matched against the event type and the payload text. */
  query?: string | null;
  httpCodeClass?: string | null;
  eventTypes?: string[] | null;
}

export interface RedeliveryFilters {
  endpointIds?: string[] | null;
  eventTypes?: string[] | null;
  start?: Date | null;
  end?: Date | null;
}

interface DeliveryRow {
  id: string;
  created_at: Date;
  succeeded: boolean;
  http_code: number | null;
  response: string | null;
  duration_ms: number;
  error: string | null;
  endpoint_id: string;
  message_id: string;
  message_created_at: Date;
  message_modified_at: Date | null;
  last_http_code: number | null;
  status: string;
  payload: string;
  type: string;
  total?: string;
}

/** The delivery log and redelivery, scoped to the caller's organizations. */
export class WebhookDeliveryService {
  constructor(private readonly onQueued: () => void = () => undefined) {}

  async list(ctx: RequestContext, query: PageRequest & DeliveryFilters) {
    assertFilters(query);
    const window = pageWindow(query);
    const { where, params } = deliveryFilter(ctx, query);
    const rows = await ctx.em.execute<DeliveryRow[]>(
      `select d.id, d.created_at, d.succeeded, d.http_code, d.response, d.duration_ms, d.error, d.endpoint_id,
              m.id as message_id, m.created_at as message_created_at, m.modified_at as message_modified_at,
              m.last_http_code, m.status, ev.payload, ev.type
         from webhooks.deliveries d
         join webhooks.messages m on m.id = d.message_id
         join webhooks.events ev on ev.id = m.event_id
        where ${where}
        order by d.created_at desc, d.id desc
        limit ? offset ?`,
      [...params, window.limit, window.offset],
    );
    const total =
      totalFromPage(rows.length, window) ??
      Number(
        (
          await ctx.em.execute<{ total: string }[]>(
            `select count(*) as total from webhooks.deliveries d
               join webhooks.messages m on m.id = d.message_id
               join webhooks.events ev on ev.id = m.event_id where ${where}`,
            params,
          )
        )[0].total,
      );
    return { items: rows.map(toDelivery), pagination: paginationOf(total, query.limit) };
  }

  /**
   * Queues one event (Polar's WebhookEvent id) for its endpoint again: the same stored bytes, the same
   * webhook-id, a fresh run of attempts. 404 for an id the caller may not see.
   */
  async redeliver(ctx: RequestContext, messageId: string): Promise<void> {
    const rows = await ctx.em.execute<{ id: string }[]>(
      `update webhooks.messages set status = 'pending', attempts = 0, next_attempt_at = now(), lease_until = null,
              modified_at = now()
        where id = ? and organization_id = any(?::uuid[])
        returning id`,
      [messageId, pgArray(scopedOrganizationIds(ctx.principal))],
    );
    if (rows.length === 0) throw new ResourceNotFound();
    this.onQueued();
  }

  /** Beyond Polar: queues again every failed (or skipped) event matching the filters; how many. */
  async redeliverFailed(ctx: RequestContext, filters: RedeliveryFilters): Promise<number> {
    assertFilters(filters);
    const conditions = [`m.organization_id = any(?::uuid[])`, `m.status in ('failed', 'skipped')`];
    const params: unknown[] = [pgArray(scopedOrganizationIds(ctx.principal))];
    if (filters.endpointIds?.length) {
      conditions.push('m.endpoint_id = any(?::uuid[])');
      params.push(pgArray(filters.endpointIds));
    }
    if (filters.eventTypes?.length) {
      conditions.push('ev.type = any(?::text[])');
      params.push(pgArray(filters.eventTypes));
    }
    if (filters.start) {
      conditions.push('ev.timestamp >= ?');
      params.push(filters.start);
    }
    if (filters.end) {
      conditions.push('ev.timestamp <= ?');
      params.push(filters.end);
    }
    const rows = await ctx.em.execute<{ id: string }[]>(
      `update webhooks.messages m set status = 'pending', attempts = 0, next_attempt_at = now(), lease_until = null,
              modified_at = now()
         from webhooks.events ev, webhooks.endpoints ep
        where ev.id = m.event_id and ep.id = m.endpoint_id and ep.enabled and ep.deleted_at is null
          and ${conditions.join(' and ')}
        returning m.id`,
      params,
    );
    if (rows.length) this.onQueued();
    return rows.length;
  }
}

/**
 * The filters that are enums on the wire, checked here too: the REST routes refuse other values with a
 * 422, and GraphQL (where they are plain strings) must get the same answer rather than reach the SQL
 * (a class that is no number, an event type no delivery has).
 */
function assertFilters(f: { httpCodeClass?: string | null; eventTypes?: string[] | null }): void {
  const issues: ValidationIssue[] = [];
  if (f.httpCodeClass != null && !(HTTP_CODE_CLASSES as readonly string[]).includes(f.httpCodeClass))
    issues.push({
      type: 'enum',
      loc: ['query', 'http_code_class'],
      msg: "Input should be '2xx', '3xx', '4xx' or '5xx'",
      input: f.httpCodeClass,
      ctx: { expected: "'2xx', '3xx', '4xx', '5xx'" },
    });
  for (const [i, type] of (f.eventTypes ?? []).entries())
    if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type))
      issues.push({
        type: 'enum',
        loc: ['query', 'event_type', i],
        msg: 'Input should be a webhook event type',
        input: type,
      });
  if (issues.length) throw new PolarRequestValidationError(issues);
}

function deliveryFilter(ctx: RequestContext, f: DeliveryFilters): { where: string; params: unknown[] } {
  const conditions = ['d.organization_id = any(?::uuid[])'];
  const params: unknown[] = [pgArray(scopedOrganizationIds(ctx.principal))];
  if (f.endpointIds?.length) {
    conditions.push('d.endpoint_id = any(?::uuid[])');
    params.push(pgArray(f.endpointIds));
  }
  if (f.start) {
    conditions.push('d.created_at >= ?');
    params.push(f.start);
  }
  if (f.end) {
    conditions.push('d.created_at <= ?');
    params.push(f.end);
  }
  if (f.succeeded != null) {
    conditions.push('d.succeeded = ?');
    params.push(f.succeeded);
  }
  if (f.httpCodeClass) {
    const low = Number(f.httpCodeClass[0]) * 100;
    conditions.push('d.http_code >= ? and d.http_code < ?');
    params.push(low, low + 100);
  }
  if (f.eventTypes?.length) {
    conditions.push('ev.type = any(?::text[])');
    params.push(pgArray(f.eventTypes));
  }
  if (f.query) {
    conditions.push(`(ev.type ilike ? or ev.payload ilike ?)`);
    const pattern = `%${f.query.replace(/[\\%_]/g, c => `\\${c}`)}%`;
    params.push(pattern, pattern);
  }
  return { where: conditions.join(' and '), params };
}

function toDelivery(row: DeliveryRow): WebhookDeliveryType {
  const finished = row.status === 'succeeded' || row.status === 'failed';
  return {
    id: row.id,
    createdAt: new Date(row.created_at),
    modifiedAt: null,
    succeeded: row.succeeded,
    httpCode: row.http_code,
    response: row.response,
    durationMs: row.duration_ms,
    error: row.error,
    endpointId: row.endpoint_id,
    webhookEvent: {
      id: row.message_id,
      createdAt: new Date(row.message_created_at),
      modifiedAt: row.message_modified_at ? new Date(row.message_modified_at) : null,
      lastHttpCode: row.last_http_code,
      succeeded: finished ? row.status === 'succeeded' : null,
      skipped: row.status === 'skipped',
      payload: row.payload,
      type: row.type,
      isArchived: false,
    },
  };
}
