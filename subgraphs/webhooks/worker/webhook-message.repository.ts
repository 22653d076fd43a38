import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { statementNameOn } from '../../../kit/database/direct-urls.js';

/** A message leased to a worker, with what sending it needs. */
export interface ClaimedMessage {
  id: string;
  event_id: string;
  endpoint_id: string;
  organization_id: string;
  event_position: string;
  attempts: number;
  payload: string;
  url: string;
  secret: string;
  enabled: boolean;
  deleted_at: Date | null;
}

/** One outcome as `record` stores it: a finished attempt (`recorded`) or a lease handed back. */
export interface RecordedAttempt {
  message_id: string;
  attempt: number;
  status: string;
  recorded: boolean;
  endpoint_id?: string;
  organization_id?: string;
  succeeded?: boolean;
  http_code?: number | null;
  response?: string | null;
  duration_ms?: number | null;
  error?: string | null;
  delay_ms?: number;
}

// The body of the version the message was queued for (event-ingest.ts), else the unversioned envelope.
const CLAIMED_COLUMNS = `m.id, m.event_id, m.endpoint_id, m.organization_id, m.event_position, m.attempts,
                         coalesce((select b.body from webhooks.event_bodies b
                                    where b.event_id = m.event_id and b.api_version = m.api_version), ev.payload) as payload,
                         ep.url, ep.secret, ep.enabled, ep.deleted_at`;

/**
 * The SQL of webhook delivery (the rules are delivery-queue.ts's): the queue is `webhooks.messages`, one
 * row per event and endpoint, in each endpoint's event order.
 */
export class WebhookMessageRepository {
  /** The ORM's own `pg` pool (same connections and session settings), for the prepared statements. */
  private pool: Promise<Pool> | undefined;

  constructor(private readonly orm: MikroORM) {}

  /**
   * Runs one of the hot statements (claim, record) as a named prepared statement on the ORM's `pg` pool:
   * each connection parses it once and PostgreSQL can reuse its plan, instead of the ORM inlining the
   * parameters into a new SQL text that is parsed and planned on every call. Per delivery, that was
   * most of the worker's SQL cost (bench/webhooks.ts). Through a pooler in transaction mode they go
   * unnamed (kit/database/direct-urls.ts).
   */
  private async prepared<Row>(name: string, text: string, values: unknown[]): Promise<Row[]> {
    this.pool ??= this.orm.em.getConnection().getNativeClient();
    const result = await (await this.pool).query<Row & object>({
      name: statementNameOn(this.orm.config.get('clientUrl'), name),
      text,
      values,
    });
    return result.rows;
  }

  /**
   * Leases chains of up to `endpoints` endpoints (each at most `chainLength` messages) for `leaseMs`,
   * counting each leased message's attempt, ordered by endpoint and then event order.
   */
  claim(endpoints: number, chainLength: number, leaseMs: number): Promise<ClaimedMessage[]> {
    // `heads`: each endpoint's oldest pending message, through the partial index on (endpoint_id,
    // event_position) where pending (a few index probes per endpoint, however long the queues are).
    return this.prepared<ClaimedMessage>(
      'webhooks_claim',
      `with heads as (
         select e.id as endpoint_id, h.event_position, h.next_attempt_at
           from webhooks.endpoints e
           cross join lateral (
             select m.event_position, m.next_attempt_at, m.lease_until from webhooks.messages m
              where m.endpoint_id = e.id and m.status = 'pending'
              order by m.event_position limit 1) h
          where h.next_attempt_at <= now() and (h.lease_until is null or h.lease_until < now())
          order by h.next_attempt_at limit $1),
       locked as (
         select e.id from webhooks.endpoints e where e.id in (select endpoint_id from heads)
            for no key update of e skip locked),
       chain as (
         select c.id from heads h join locked l on l.id = h.endpoint_id
          cross join lateral (
            select w.id from (
              select q.id, bool_and(q.ready) over (order by q.event_position) as ready
                from (select m.id, m.event_position,
                             m.next_attempt_at <= now() and (m.lease_until is null or m.lease_until < now()) as ready
                        from webhooks.messages m
                       where m.endpoint_id = h.endpoint_id and m.status = 'pending'
                         and m.event_position >= h.event_position
                       order by m.event_position limit $2) q) w
             where w.ready) c),
       picked as (
         select c.id from webhooks.messages c
          where c.id in (select id from chain) and c.status = 'pending' and c.next_attempt_at <= now()
            and (c.lease_until is null or c.lease_until < now())
          for update of c skip locked)
       update webhooks.messages m
          set lease_until = now() + make_interval(secs => $3::double precision / 1000), attempts = m.attempts + 1
         from picked, webhooks.events ev, webhooks.endpoints ep
        where m.id = picked.id and ev.id = m.event_id and ep.id = m.endpoint_id
        returning ${CLAIMED_COLUMNS}`,
      [endpoints, chainLength, leaseMs],
    );
  }

  /**
   * Milliseconds until the earliest endpoint's head message can be claimed (due and not leased),
   * `null` when nothing is pending.
   */
  async nextClaimableInMs(): Promise<number | null> {
    const [row] = await this.orm.em.fork().execute<{ ms: number | string | null }[]>(
      `select extract(epoch from (min(greatest(h.next_attempt_at, coalesce(h.lease_until, h.next_attempt_at))) - now())) * 1000 as ms
         from webhooks.endpoints e
         cross join lateral (
           select m.next_attempt_at, m.lease_until from webhooks.messages m
            where m.endpoint_id = e.id and m.status = 'pending'
            order by m.event_position limit 1) h`,
    );
    return row?.ms == null ? null : Number(row.ms);
  }

  /** Marks the messages skipped (still at the attempt their claim counted), their leases dropped. */
  async skip(messages: ClaimedMessage[]): Promise<void> {
    await this.orm.em.fork().execute(
      `update webhooks.messages m set status = 'skipped', lease_until = null, modified_at = now()
         from jsonb_to_recordset(?::jsonb) as x(id uuid, attempt int)
        where m.id = x.id and m.attempts = x.attempt`,
      [JSON.stringify(messages.map(m => ({ id: m.id, attempt: m.attempts })))],
    );
  }

  /** Records finished attempts and hands back released leases, in one statement. */
  async record(rows: RecordedAttempt[]): Promise<void> {
    await this.prepared(
      'webhooks_record',
      `with x as (
         select * from jsonb_to_recordset($1::jsonb) as x(message_id uuid, endpoint_id uuid, organization_id uuid,
                attempt int, recorded boolean, succeeded boolean, http_code int, response text, duration_ms int,
                error text, status text, delay_ms double precision)),
       attempts as (
         insert into webhooks.deliveries (id, message_id, endpoint_id, organization_id, attempt, succeeded, http_code,
                response, duration_ms, error, created_at)
         select gen_random_uuid(), message_id, endpoint_id, organization_id, attempt, succeeded, http_code, response,
                duration_ms, error, now() from x where recorded),
       released as (
         update webhooks.messages m set lease_until = null, attempts = m.attempts - 1
           from x where not x.recorded and m.id = x.message_id and m.attempts = x.attempt and m.status = 'pending')
       update webhooks.messages m
          set status = x.status, last_http_code = x.http_code, lease_until = null, modified_at = now(),
              next_attempt_at = now() + make_interval(secs => x.delay_ms / 1000)
         from x
        where x.recorded and m.id = x.message_id and m.attempts = x.attempt and m.status = 'pending'`,
      [JSON.stringify(rows)],
    );
  }

  /** The statuses of the endpoint's `limit` most recent finished messages, newest first. */
  async recentFinishedStatuses(em: EntityManager, endpointId: string, limit: number): Promise<string[]> {
    const rows = await em.execute<{ status: string }[]>(
      `select status from webhooks.messages where endpoint_id = ? and status in ('succeeded', 'failed')
        order by event_position desc limit ?`,
      [endpointId, limit],
    );
    return rows.map(r => r.status);
  }

  /** Disables the endpoint if it is enabled; its url when this call disabled it, else `null`. */
  async disableEndpoint(em: EntityManager, endpointId: string): Promise<string | null> {
    const disabled = await em.execute<{ id: string; url: string }[]>(
      `update webhooks.endpoints set enabled = false, modified_at = now() where id = ? and enabled returning id, url`,
      [endpointId],
    );
    return disabled[0]?.url ?? null;
  }

  /** Skips every pending message of the endpoint. */
  async skipPendingOf(em: EntityManager, endpointId: string): Promise<void> {
    await em.execute(
      `update webhooks.messages set status = 'skipped', lease_until = null, modified_at = now()
        where endpoint_id = ? and status = 'pending'`,
      [endpointId],
    );
  }

  /** Stores the notice that the endpoint was disabled. */
  async insertDisabledNotification(
    em: EntityManager,
    notification: { id: string; organization_id: string; endpoint_id: string; message: string; created_at: Date },
  ): Promise<void> {
    await em.execute(
      `insert into webhooks.notifications (id, organization_id, endpoint_id, kind, message, created_at)
       values (?, ?, ?, 'endpoint_disabled', ?, ?)`,
      [
        notification.id,
        notification.organization_id,
        notification.endpoint_id,
        notification.message,
        notification.created_at,
      ],
    );
  }
}
