import { scopedOrganizationIds } from '../../../kit/database/tenant-scope.js';
import { PolarRequestValidationError, ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { HTTP_CODE_CLASSES, WEBHOOK_EVENT_TYPES } from '../events/event-types.js';
import {
  type DeliveryFilters,
  deliveryReadFilters,
  WEBHOOK_DELIVERY_ORDER,
  webhookDeliveryFromRow,
  webhookDeliveryRead,
} from './webhook-delivery.read.js';
import { type RedeliveryFilters, WebhookDeliveryRepository } from './webhook-delivery.repository.js';

/** The delivery log and redelivery, scoped to the caller's organizations. */
export class WebhookDeliveryService {
  constructor(private readonly onQueued: () => void = () => undefined) {}

  /** One page of the log through the read path, newest first (a count only when the page is full). */
  async list(ctx: RequestContext, query: PageRequest & DeliveryFilters) {
    assertFilters(query);
    const { rows, total } = await webhookDeliveryRead.page(
      ctx.em,
      ctx.principal,
      deliveryReadFilters(query),
      WEBHOOK_DELIVERY_ORDER,
      pageWindow(query),
    );
    return { items: rows.map(webhookDeliveryFromRow), pagination: paginationOf(total, query.limit) };
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
