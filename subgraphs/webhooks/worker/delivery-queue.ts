import { randomUUID } from 'node:crypto';
import { recordOwnerNotice } from '../../../kit/email/owner-notices.js';
import { endpointDisabledEmail } from '../notifications/endpoint-disabled.email.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import type { Logger } from '../../../kit/logger.js';
import { SAFETY_POLL_MS } from '../../../kit/background/background-work.js';
import { type DeliveryPolicy, retryDelayMs } from './delivery-policy.js';
import type { SendResult } from './delivery-sender.js';

/** A message leased to this worker, with what sending it needs. */
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

/** What became of a claimed message: an attempt that finished, or a lease handed back unsent. */
export type Outcome = { message: ClaimedMessage; result: SendResult } | { message: ClaimedMessage; released: true };

/**
 * At most this many consecutive messages of one endpoint are leased by one claim (a chain). A claim
 * costs PostgreSQL about 0.12 ms per message with chains of 16 and 0.07 with 32 (64 saves no more);
 * the half-lease rule of the worker bounds what a slow endpoint's long chain holds.
 */
export const CHAIN_LENGTH = 32;

const CLAIMED_COLUMNS = `m.id, m.event_id, m.endpoint_id, m.organization_id, m.event_position, m.attempts, ev.payload,
                         ep.url, ep.secret, ep.enabled, ep.deleted_at`;

/**
 * The SQL of webhook delivery: the queue is `webhooks.messages` (one row per event and endpoint), in
 * each endpoint's event order.
 *
 * A claim leases, per endpoint, a *chain*: its oldest pending message and up to CHAIN_LENGTH-1 pending
 * messages after it, stopping at the first one that is not due or is leased (so a chain has no gap).
 * Each leased message has its attempt counted at the claim, which fences the recording: a worker whose
 * lease ran out cannot overwrite the attempt of the worker that claimed it again. The endpoint row is
 * locked (SKIP LOCKED) for the claim, so two workers never lease parts of the same endpoint's queue at
 * once; each message is locked and re-checked too, so a claim whose snapshot is older than another
 * worker's committed lease takes nothing of it. The claim commits before any HTTP.
 */
export class DeliveryQueue {
  /** The ORM's own `pg` pool (same connections and session settings), for the prepared statements. */
  private pool: Promise<Pool> | undefined;

  constructor(
    private readonly orm: MikroORM,
    private readonly policy: DeliveryPolicy,
    private readonly logger: Logger,
    /** Called after a disable committed (the notification relay hands its e-mail over at once). */
    private readonly onDisabled: () => void = () => undefined,
  ) {}

  /**
   * Runs one of the hot statements (claim, record) as a named prepared statement on the ORM's `pg` pool:
   * each connection parses it once and PostgreSQL can reuse its plan, instead of the ORM inlining the
   * parameters into a new SQL text that is parsed and planned on every call. Per delivery, that was
   * most of the worker's SQL cost (bench/webhooks.ts).
   */
  private async prepared<Row>(name: string, text: string, values: unknown[]): Promise<Row[]> {
    this.pool ??= this.orm.em.getConnection().getNativeClient();
    const result = await (await this.pool).query<Row & object>({ name, text, values });
    return result.rows;
  }

  /** Leases chains of up to `endpoints` endpoints, ordered by endpoint and then event order. */
  claim(endpoints: number): Promise<ClaimedMessage[]> {
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
      [endpoints, CHAIN_LENGTH, this.policy.leaseMs],
    );
  }

  /**
   * How long an idle worker may sleep: until the earliest endpoint's next message can be claimed (the
   * head of its queue due and not leased: a retry's backoff, a dead worker's lease), at least 5 ms, at
   * most SAFETY_POLL_MS (nothing pending: only a wake-up). The same heads the claim takes: a message
   * queued behind a head that waits for its retry waits with it, and does not keep the worker polling.
   */
  async idleMs(): Promise<number> {
    const [row] = await this.orm.em.fork().execute<{ ms: number | string | null }[]>(
      `select extract(epoch from (min(greatest(h.next_attempt_at, coalesce(h.lease_until, h.next_attempt_at))) - now())) * 1000 as ms
         from webhooks.endpoints e
         cross join lateral (
           select m.next_attempt_at, m.lease_until from webhooks.messages m
            where m.endpoint_id = e.id and m.status = 'pending'
            order by m.event_position limit 1) h`,
    );
    const due = row?.ms == null ? SAFETY_POLL_MS : Number(row.ms);
    return Math.min(SAFETY_POLL_MS, Math.max(5, Math.ceil(due)));
  }

  /** A disabled or deleted endpoint's messages are skipped, not sent. */
  async skip(messages: ClaimedMessage[]): Promise<void> {
    await this.orm.em.fork().execute(
      `update webhooks.messages m set status = 'skipped', lease_until = null, modified_at = now()
         from jsonb_to_recordset(?::jsonb) as x(id uuid, attempt int)
        where m.id = x.id and m.attempts = x.attempt`,
      [JSON.stringify(messages.map(m => ({ id: m.id, attempt: m.attempts })))],
    );
  }

  /**
   * Records finished attempts (a delivery row each, and each message's new state) and hands back the
   * leases of messages left unsent (their attempt uncounted), in one statement: one round trip, atomic.
   */
  async record(batch: Outcome[]): Promise<void> {
    const rows = batch.map(outcome => {
      const { message } = outcome;
      if ('released' in outcome)
        return { message_id: message.id, attempt: message.attempts, status: 'released', recorded: false };
      const { result } = outcome;
      const final = result.succeeded || message.attempts >= this.policy.maxAttempts;
      return {
        message_id: message.id,
        endpoint_id: message.endpoint_id,
        organization_id: message.organization_id,
        attempt: message.attempts,
        recorded: true,
        succeeded: result.succeeded,
        http_code: result.httpCode,
        response: result.response,
        duration_ms: result.durationMs,
        error: result.error,
        status: result.succeeded ? 'succeeded' : final ? 'failed' : 'pending',
        delay_ms: final ? 0 : retryDelayMs(message.attempts, this.policy),
      };
    });
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
    // After an event's last attempt failed: the disable rule, in its own transaction (rare).
    for (const row of rows)
      if (row.status === 'failed' && (await this.orm.em.fork().transactional(tx => this.disableIfFailing(tx, row))))
        this.onDisabled();
  }

  /**
   * Polar's rule: the endpoint's 10 most recent finished events all failed → disabled, owner told: the
   * e-mail is written in this transaction (`webhooks.owner_notices`, kit/email/owner-notices.ts) and a
   * relay hands it to billing's outbox. True when it disabled.
   */
  private async disableIfFailing(
    em: Parameters<Parameters<MikroORM['em']['transactional']>[0]>[0],
    failed: { endpoint_id?: string; organization_id?: string },
  ): Promise<boolean> {
    const recent = await em.execute<{ status: string }[]>(
      `select status from webhooks.messages where endpoint_id = ? and status in ('succeeded', 'failed')
        order by event_position desc limit ?`,
      [failed.endpoint_id, this.policy.failureThreshold],
    );
    if (recent.length < this.policy.failureThreshold || recent.some(r => r.status !== 'failed')) return false;
    const disabled = await em.execute<{ id: string; url: string }[]>(
      `update webhooks.endpoints set enabled = false, modified_at = now() where id = ? and enabled returning id, url`,
      [failed.endpoint_id],
    );
    if (disabled.length === 0) return false;
    await em.execute(
      `update webhooks.messages set status = 'skipped', lease_until = null, modified_at = now()
        where endpoint_id = ? and status = 'pending'`,
      [failed.endpoint_id],
    );
    const notification = {
      id: randomUUID(),
      organization_id: failed.organization_id as string,
      endpoint_id: failed.endpoint_id as string,
      message: `Webhook endpoint ${disabled[0].url} was disabled: its last ${this.policy.failureThreshold} events all failed.`,
      created_at: new Date(),
      url: disabled[0].url,
    };
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
    await recordOwnerNotice(em, 'webhooks', endpointDisabledEmail(notification));
    this.logger.warn(
      { organizationId: failed.organization_id, endpointId: failed.endpoint_id },
      'webhook endpoint disabled after consecutive failures; its owners are e-mailed',
    );
    return true;
  }
}
