import type { EntityManager } from '@mikro-orm/postgresql';
import { eventJson, heardRecorded } from './record-event.js';

/** An undispatched outbox row as the relay reads it. */
export interface OutboxRow {
  id: string;
  organization_id: string;
  type: string;
  payload: Record<string, unknown> | string;
  created_at: Date;
}

/** The relay's statements on `billing.events`, in the relay's transaction (events/outbox-relay.ts). */
export class OutboxQueries {
  constructor(private readonly em: EntityManager) {}

  /** The transaction-scoped advisory lock `key`, if no other transaction holds it (never waits). */
  async tryBatchLock(key: number): Promise<boolean> {
    const [lock] = await this.em.execute<{ locked: boolean }[]>('select pg_try_advisory_xact_lock(?) as locked', [key]);
    return lock?.locked ?? false;
  }

  /** Up to `limit` undispatched rows in outbox order, row-locked, skipping rows another relay holds. */
  undispatched(limit: number): Promise<OutboxRow[]> {
    return this.em.execute<OutboxRow[]>(
      `select id, organization_id, type, payload, created_at from billing.events
          where dispatched_at is null order by created_at, id limit ? for update skip locked`,
      [limit],
    );
  }

  async markDispatched(ids: string[]): Promise<void> {
    // `in (?)`: MikroORM expands the bound array into one parameter per id.
    await this.em.execute('update billing.events set dispatched_at = now() where id in (?)', [ids]);
  }
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
  const written = await em.execute<{ id: string; type: string; payload: Record<string, any>; created_at: Date }[]>(
    `${numbered}
     insert into billing.events (id, organization_id, type, payload, created_at, dispatched_at)
     select gen_random_uuid(), ?, e.type,
            p.payloads[e.payload + 1] ${numbering ? `|| case when e.payload = ? then jsonb_build_object('invoice_number', o.invoice_number) else '{}' end` : ''} || e.patch,
            e.at, null
     from ${numbering ? 'o, ' : ''}(select array[${payloads.map(() => '?::jsonb').join(', ')}] as payloads) p,
          (values ${values}) as e(type, payload, patch, at)
     returning id, type, payload, created_at`,
    [
      ...(numbering ? [organizationId, numbering.prefix, numbering.orderId] : []),
      organizationId,
      ...(numbering ? [numbering.payload] : []),
      ...payloads,
      ...rows.flatMap(r => [r.type, r.payload, r.patch ? eventJson(r.patch) : '{}', r.at]),
    ],
  );
  await heardRecorded(
    em,
    written.map(r => ({
      id: r.id,
      organizationId,
      type: r.type,
      payload: r.payload,
      createdAt: new Date(r.created_at),
    })),
  );
}
