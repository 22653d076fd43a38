import { scopedOrganizationIds } from '../../../kit/database/tenant-scope.js';
import { PolarRequestValidationError, ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { HTTP_CODE_CLASSES, WEBHOOK_EVENT_TYPES } from '../events/event-types.js';
import {
  type DeliveryFilters,
  type DeliveryRow,
  type RedeliveryFilters,
  WebhookDeliveryRepository,
} from './webhook-delivery.repository.js';
import type { WebhookDeliveryType } from './webhook-delivery.type.js';

/** The delivery log and redelivery, scoped to the caller's organizations. */
export class WebhookDeliveryService {
  constructor(private readonly onQueued: () => void = () => undefined) {}

  async list(ctx: RequestContext, query: PageRequest & DeliveryFilters) {
    assertFilters(query);
    const { rows, total } = await new WebhookDeliveryRepository(ctx.em).page(
      scopedOrganizationIds(ctx.principal),
      query,
      pageWindow(query),
    );
    return { items: rows.map(toDelivery), pagination: paginationOf(total, query.limit) };
  }

  /**
   * Queues one event (Polar's WebhookEvent id) for its endpoint again: the same stored bytes, the same
   * webhook-id, a fresh run of attempts. 404 for an id the caller may not see.
   */
  async redeliver(ctx: RequestContext, messageId: string): Promise<void> {
    const found = await new WebhookDeliveryRepository(ctx.em).requeue(messageId, scopedOrganizationIds(ctx.principal));
    if (found === 0) throw new ResourceNotFound();
    this.onQueued();
  }

  /** Beyond Polar: queues again every failed (or skipped) event matching the filters; how many. */
  async redeliverFailed(ctx: RequestContext, filters: RedeliveryFilters): Promise<number> {
    assertFilters(filters);
    const queued = await new WebhookDeliveryRepository(ctx.em).requeueFailed(
      scopedOrganizationIds(ctx.principal),
      filters,
    );
    if (queued) this.onQueued();
    return queued;
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
