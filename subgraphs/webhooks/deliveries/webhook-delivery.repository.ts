import type { EntityManager } from '@mikro-orm/postgresql';
import { totalFromPage } from '../../../kit/graphql/pagination.js';

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

export interface DeliveryRow {
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

/**
 * The webhooks subgraph's delivery log and redelivery queries (hand-written SQL over deliveries, messages
 * and events), within the organizations the caller passes (its scope, from the tenant rule).
 */
export class WebhookDeliveryRepository {
  constructor(private readonly em: EntityManager) {}

  /** One page of deliveries, newest first, with its event; the exact count only when the page cannot tell it. */
  async page(
    organizationIds: readonly string[],
    filters: DeliveryFilters,
    window: { limit: number; offset: number },
  ): Promise<{ rows: DeliveryRow[]; total: number }> {
    const { where, params } = deliveryFilter(organizationIds, filters);
    const rows = await this.em.execute<DeliveryRow[]>(
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
          await this.em.execute<{ total: string }[]>(
            `select count(*) as total from webhooks.deliveries d
               join webhooks.messages m on m.id = d.message_id
               join webhooks.events ev on ev.id = m.event_id where ${where}`,
            params,
          )
        )[0].total,
      );
    return { rows, total };
  }

  /** Puts one message back in the queue (a fresh run of attempts); how many rows it found in scope (0 or 1). */
  async requeue(messageId: string, organizationIds: readonly string[]): Promise<number> {
    const rows = await this.em.execute<{ id: string }[]>(
      `update webhooks.messages set status = 'pending', attempts = 0, next_attempt_at = now(), lease_until = null,
              modified_at = now()
        where id = ? and organization_id = any(?::uuid[])
        returning id`,
      [messageId, pgArray(organizationIds)],
    );
    return rows.length;
  }

  /** Puts every failed (or skipped) message matching the filters, of a live endpoint, back in the queue; how many. */
  async requeueFailed(organizationIds: readonly string[], filters: RedeliveryFilters): Promise<number> {
    const conditions = [`m.organization_id = any(?::uuid[])`, `m.status in ('failed', 'skipped')`];
    const params: unknown[] = [pgArray(organizationIds)];
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
    const rows = await this.em.execute<{ id: string }[]>(
      `update webhooks.messages m set status = 'pending', attempts = 0, next_attempt_at = now(), lease_until = null,
              modified_at = now()
         from webhooks.events ev, webhooks.endpoints ep
        where ev.id = m.event_id and ep.id = m.endpoint_id and ep.enabled and ep.deleted_at is null
          and ${conditions.join(' and ')}
        returning m.id`,
      params,
    );
    return rows.length;
  }
}

function deliveryFilter(organizationIds: readonly string[], f: DeliveryFilters): { where: string; params: unknown[] } {
  const conditions = ['d.organization_id = any(?::uuid[])'];
  const params: unknown[] = [pgArray(organizationIds)];
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

/**
 * A PostgreSQL array literal (`{"a","b"}`) for `= any(?::uuid[])`: MikroORM expands an array bound to `?`
 * into a list of parameters, which `any` does not take. Every element is quoted (a backslash before `"`
 * and `\`), so any text is one element, never a syntax error or a second element.
 */
export function pgArray(values: readonly string[]): string {
  return `{${values.map(v => `"${v.replace(/["\\]/g, c => `\\${c}`)}"`).join(',')}}`;
}
