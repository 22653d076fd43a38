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

/** An event as it was written to the outbox (by the unit of work or by `insertEvents`). */
export interface RecordedEvent {
  id: string;
  organizationId: string;
  type: string;
  payload: Record<string, any>;
  createdAt: Date;
}

/**
 * Who reads each event in the transaction that writes it (the customer e-mails,
 * customer-emails/customer-email-recorder.ts): registered as a subscriber of the ORM's event manager, it
 * hears the unit of work's events after each flush and `insertEvents`' rows through `heardRecorded`.
 */
export interface OutboxListener {
  outboxRecorded(em: EntityManager, events: readonly RecordedEvent[]): Promise<void>;
}

/** Hands rows written without the unit of work to the listeners, in the writer's transaction. */
export async function heardRecorded(em: EntityManager, events: readonly RecordedEvent[]): Promise<void> {
  for (const subscriber of em.getEventManager().getSubscribers())
    if ('outboxRecorded' in subscriber) await (subscriber as OutboxListener).outboxRecorded(em, events);
}
