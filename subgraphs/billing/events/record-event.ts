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

/** One outbox row of `insertEvents`: its payload is `payloads[payload]`, with `patch`'s keys over it. */
export interface EventRow {
  type: string;
  payload: number;
  patch?: Record<string, unknown>;
  at: Date;
}

/**
 * The outbox rows of one piece of hot-path work (a renewal) in one statement, on the caller's
 * connection and so in its transaction, without the unit of work: rows share payloads (each sent once,
 * as JSON text from `eventJson`), and a row may patch a few keys of its payload (an order's
 * `order.created` is the paid order's payload as it was when still pending).
 */
export async function insertEvents(
  em: EntityManager,
  organizationId: string,
  payloads: string[],
  rows: EventRow[],
): Promise<void> {
  const values = rows.map(() => '(?, ?::int, ?::jsonb, ?::timestamptz)').join(', ');
  await em.execute(
    `insert into billing.events (id, organization_id, type, payload, created_at, dispatched_at)
     select gen_random_uuid(), ?, e.type, p.payloads[e.payload + 1] || e.patch, e.at, null
     from (select array[${payloads.map(() => '?::jsonb').join(', ')}] as payloads) p,
          (values ${values}) as e(type, payload, patch, at)`,
    [organizationId, ...payloads, ...rows.flatMap(r => [r.type, r.payload, r.patch ? eventJson(r.patch) : '{}', r.at])],
  );
}
