import type { EntityManager } from '@mikro-orm/postgresql';

export interface RedeliveryFilters {
  endpointIds?: string[] | null;
  eventTypes?: string[] | null;
  start?: Date | null;
  end?: Date | null;
}

/**
 * The webhooks subgraph's redelivery statements (writes: hand-written SQL over messages and events),
 * within the organizations the caller passes (its scope, from the tenant rule). The delivery log itself
 * is read through `webhook-delivery.read.ts`.
 */
export class WebhookDeliveryRepository {
  constructor(private readonly em: EntityManager) {}

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

/**
 * A PostgreSQL array literal (`{"a","b"}`) for `= any(?::uuid[])`: MikroORM expands an array bound to `?`
 * into a list of parameters, which `any` does not take. Every element is quoted (a backslash before `"`
 * and `\`), so any text is one element, never a syntax error or a second element.
 */
export function pgArray(values: readonly string[]): string {
  return `{${values.map(v => `"${v.replace(/["\\]/g, c => `\\${c}`)}"`).join(',')}}`;
}
