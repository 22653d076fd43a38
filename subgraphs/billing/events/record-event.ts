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
 *
 * With `numbering`, the same statement first takes the organization's next invoice number, gives it to
 * the order (written without one) and puts it in that order's payload (`payloads[numbering.payload]`):
 * the invoice-number row is the one lock every renewal of an organization waits for, and taken here it
 * is held from the transaction's last statement to its commit only.
 */
export async function insertEvents(
  em: EntityManager,
  organizationId: string,
  payloads: string[],
  rows: EventRow[],
  numbering?: { orderId: string; prefix: string; payload: number },
): Promise<void> {
  const values = rows.map(() => '(?, ?::int, ?::jsonb, ?::timestamptz)').join(', ');
  const numbered = numbering
    ? `with n as (
         insert into billing.invoice_number_sequences (organization_id, last_number) values (?, 1)
         on conflict (organization_id) do update set last_number = billing.invoice_number_sequences.last_number + 1
         returning last_number),
       o as (
         update billing.orders set invoice_number = ? || '-' || lpad(n.last_number::text, greatest(4, length(n.last_number::text)), '0')
         from n where id = ? returning invoice_number)`
    : '';
  await em.execute(
    `${numbered}
     insert into billing.events (id, organization_id, type, payload, created_at, dispatched_at)
     select gen_random_uuid(), ?, e.type,
            p.payloads[e.payload + 1] ${numbering ? `|| case when e.payload = ? then jsonb_build_object('invoice_number', o.invoice_number) else '{}' end` : ''} || e.patch,
            e.at, null
     from ${numbering ? 'o, ' : ''}(select array[${payloads.map(() => '?::jsonb').join(', ')}] as payloads) p,
          (values ${values}) as e(type, payload, patch, at)`,
    [
      ...(numbering ? [organizationId, numbering.prefix, numbering.orderId] : []),
      organizationId,
      ...(numbering ? [numbering.payload] : []),
      ...payloads,
      ...rows.flatMap(r => [r.type, r.payload, r.patch ? eventJson(r.patch) : '{}', r.at]),
    ],
  );
}
