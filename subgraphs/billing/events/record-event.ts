import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainEvent } from './domain-event.entity.js';

/**
 * Adds a domain event to the outbox in the unit of work of `em`: it is written by the same `flush`
 * (one transaction) as the change it describes, or not at all. `payload` is the wire body of the
 * resource after the change (snake_case, as a webhook would carry it), or whatever the type needs.
 */
export function recordEvent(
  em: EntityManager,
  organizationId: string,
  type: string,
  payload: Record<string, unknown>,
  now: Date = new Date(),
): DomainEvent {
  return em.create(DomainEvent, {
    organizationId,
    type,
    payload: toJson(payload),
    createdAt: now,
    dispatchedAt: null,
  } as DomainEvent);
}

/** Payloads are JSON: bigint money becomes a number, dates ISO strings. */
function toJson(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(eventJson(value)) as Record<string, unknown>;
}

/** A payload as the JSON text the outbox stores (what `recordEvent` writes). */
export function eventJson(value: Record<string, unknown>): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? Number(v) : v));
}
