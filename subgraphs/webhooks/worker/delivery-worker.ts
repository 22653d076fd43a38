import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../../kit/logger.js';
import { type DeliveryPolicy, retryDelayMs } from './delivery-policy.js';
import { type DeliverySender, type SendResult, WEBHOOK_USER_AGENT } from './delivery-sender.js';
import { signatureHeader } from './delivery-signature.js';

interface ClaimedMessage {
  id: string;
  event_id: string;
  endpoint_id: string;
  organization_id: string;
  attempts: number;
  payload: string;
  url: string;
  secret: string;
  enabled: boolean;
  deleted_at: Date | null;
}

/** At most this many requests in flight per worker (one per endpoint at a time, by the order rule). */
const MAX_IN_FLIGHT = 64;
/** Statements recording finished attempts at the same time (the worker's pool has 4 connections). */
const MAX_RECORDERS = 3;

interface Outcome {
  message: ClaimedMessage;
  result: SendResult;
}

/**
 * Delivers queued messages (one per event and endpoint) from PostgreSQL, at least once:
 *
 * 1. **Claim** in one statement: the oldest pending message of each endpoint (per-endpoint order: an
 *    event waits while an older one to the same endpoint is undelivered), when it is due and not leased,
 *    locked with `FOR UPDATE SKIP LOCKED` so workers never take the same row, leased for `leaseMs` and its
 *    attempt counted. The claim commits before any HTTP: no lock or connection is held across a call.
 * 2. **Send** the stored bytes, signed for this attempt (webhook-id = the message id, unchanged across
 *    attempts and redeliveries). Sends run concurrently, up to MAX_IN_FLIGHT; a slow endpoint holds only
 *    its own queue, and the worker keeps claiming for the others meanwhile.
 * 3. **Record** the attempts that finished (a delivery row each, and each message's new state) in one
 *    transaction, fenced on the attempt number, so a worker whose lease ran out cannot overwrite the
 *    attempt of the worker that re-claimed it.
 *
 * A worker that dies after the claim leaves the lease to expire; the message is claimed again and sent
 * with the same webhook-id (a receiver dedupes on it). Nothing is lost; a duplicate carries the same id.
 */
export class DeliveryWorker {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  /** Set by `wake()` while the loop is busy, so the wake-up is not lost. */
  private woken = false;
  private readonly inFlight = new Set<Promise<void>>();
  private finished: Outcome[] = [];
  private readonly recording = new Set<Promise<void>>();

  constructor(
    private readonly orm: MikroORM,
    private readonly sender: DeliverySender,
    private readonly policy: DeliveryPolicy,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Something was queued or recorded: look now instead of after the poll interval. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    await Promise.all(this.inFlight);
    while (this.recording.size > 0) await Promise.all(this.recording);
    this.sender.close();
  }

  /** Claims, delivers and records one round; the number of messages handled (0: nothing was due). */
  async runOnce(): Promise<number> {
    const claimed = await this.claim(MAX_IN_FLIGHT);
    await Promise.all(claimed.map(message => this.deliver(message)));
    while (this.recording.size > 0) await Promise.all(this.recording);
    return claimed.length;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let pause = 0;
      this.woken = false;
      try {
        const room = MAX_IN_FLIGHT - this.inFlight.size;
        const claimed = room > 0 ? await this.claim(room) : [];
        for (const message of claimed) this.launch(message);
        // Nothing new: wait for a finished attempt to be recorded (it frees its endpoint's next event),
        // or for the earliest retry, or for the poll interval.
        if (claimed.length === 0) pause = this.inFlight.size > 0 ? this.policy.pollMs : await this.idleMs();
      } catch (error) {
        this.logger.error({ err: error }, 'webhook delivery loop failed; retrying');
        pause = 1000;
      }
      if (pause > 0 && this.running) await this.sleep(pause);
    }
  }

  private launch(message: ClaimedMessage): void {
    const task: Promise<void> = this.deliver(message).finally(() => this.inFlight.delete(task));
    this.inFlight.add(task);
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) return Promise.resolve();
    return new Promise(resolve => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
  }

  /** Until the earliest pending message is due (at least 5 ms), at most the poll interval. */
  private async idleMs(): Promise<number> {
    const [row] = await this.orm.em
      .fork()
      .execute<{ ms: number | null }[]>(
        `select extract(epoch from (min(next_attempt_at) - now())) * 1000 as ms from webhooks.messages where status = 'pending'`,
      );
    const due = row?.ms == null ? this.policy.pollMs : Number(row.ms);
    return Math.min(this.policy.pollMs, Math.max(5, Math.ceil(due)));
  }

  private claim(limit: number): Promise<ClaimedMessage[]> {
    // `heads`: each endpoint's oldest pending message, found per endpoint through the partial index on
    // (endpoint_id, event_position) where pending (a few index probes, however long the queues are);
    // only a due, unleased head may go. Locking re-checks the row (SKIP LOCKED skips one another worker
    // is claiming).
    return this.orm.em.fork().execute<ClaimedMessage[]>(
      `with heads as (
         select h.id, h.next_attempt_at, h.lease_until
           from webhooks.endpoints e
           cross join lateral (
             select m.id, m.next_attempt_at, m.lease_until from webhooks.messages m
              where m.endpoint_id = e.id and m.status = 'pending'
              order by m.event_position limit 1) h),
       picked as (
         select c.id from webhooks.messages c
          where c.id in (select id from heads
                          where next_attempt_at <= now() and (lease_until is null or lease_until < now())
                          order by next_attempt_at limit ?)
            and c.status = 'pending' and (c.lease_until is null or c.lease_until < now())
          for update of c skip locked)
       update webhooks.messages m
          set lease_until = now() + make_interval(secs => ?::double precision / 1000), attempts = m.attempts + 1
         from picked, webhooks.events ev, webhooks.endpoints ep
        where m.id = picked.id and ev.id = m.event_id and ep.id = m.endpoint_id
        returning m.id, m.event_id, m.endpoint_id, m.organization_id, m.attempts, ev.payload, ep.url, ep.secret,
                  ep.enabled, ep.deleted_at`,
      [limit, this.policy.leaseMs],
    );
  }

  private async deliver(message: ClaimedMessage): Promise<void> {
    if (!message.enabled || message.deleted_at) {
      await this.orm.em
        .fork()
        .execute(
          `update webhooks.messages set status = 'skipped', lease_until = null, modified_at = now() where id = ? and attempts = ?`,
          [message.id, message.attempts],
        );
      this.wake();
      return;
    }
    const body = Buffer.from(message.payload, 'utf8');
    const timestamp = Math.floor(Date.now() / 1000);
    const result = await this.sender.send(
      message.url,
      {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'webhook-id': message.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(message.secret, message.id, timestamp, body),
      },
      body,
    );
    this.finished.push({ message, result });
    this.recordFinished();
  }

  /**
   * Records every finished attempt not yet recorded, in up to MAX_RECORDERS statements at a time:
   * attempts that finish meanwhile are recorded together by the next one.
   */
  private recordFinished(): void {
    while (this.recording.size < MAX_RECORDERS && this.finished.length > 0) {
      const batch = this.finished.splice(0);
      const task: Promise<void> = this.record(batch)
        .then(next => {
          // The next event of each endpoint whose event just finished goes out at once.
          for (const message of next) if (this.running) this.launch(message);
        })
        .catch(error => {
          // The leases expire and the messages are sent again (same webhook-id).
          this.logger.error({ err: error, count: batch.length }, 'recording webhook attempts failed');
        })
        .finally(() => {
          this.recording.delete(task);
          this.wake();
          this.recordFinished();
        });
      this.recording.add(task);
    }
  }

  /**
   * Records the attempts and, in the same statement, claims each finished endpoint's next event (the
   * message after the one just recorded, if it is the endpoint's oldest pending one, due and unleased):
   * one round trip per delivery instead of two. Returns what it claimed.
   */
  private async record(batch: Outcome[]): Promise<ClaimedMessage[]> {
    const rows = batch.map(({ message, result }) => {
      const final = result.succeeded || message.attempts >= this.policy.maxAttempts;
      return {
        message,
        result,
        status: result.succeeded ? 'succeeded' : final ? 'failed' : 'pending',
        delayMs: final ? 0 : retryDelayMs(message.attempts, this.policy),
      };
    });
    // One statement (so one round trip, and atomic). Data-modifying CTEs see the snapshot from before the
    // statement, so `done` still shows the recorded messages as pending: the next one is the first pending
    // message after it, and none may be older.
    const em = this.orm.em.fork();
    const claimed = await em.execute<ClaimedMessage[]>(
      `with x as (
         select * from jsonb_to_recordset(?::jsonb) as x(message_id uuid, endpoint_id uuid, organization_id uuid,
                attempt int, succeeded boolean, http_code int, response text, duration_ms int, error text,
                status text, delay_ms double precision)),
       attempts as (
         insert into webhooks.deliveries (id, message_id, endpoint_id, organization_id, attempt, succeeded, http_code,
                response, duration_ms, error, created_at)
         select gen_random_uuid(), message_id, endpoint_id, organization_id, attempt, succeeded, http_code, response,
                duration_ms, error, now() from x),
       done as (
         update webhooks.messages m
            set status = x.status, last_http_code = x.http_code, lease_until = null, modified_at = now(),
                next_attempt_at = now() + make_interval(secs => x.delay_ms / 1000)
           from x
          where m.id = x.message_id and m.attempts = x.attempt and m.status = 'pending'
          returning m.endpoint_id, m.event_position, m.status),
       next as (
         select n.id from done d
          cross join lateral (
            select c.id from webhooks.messages c
             where c.endpoint_id = d.endpoint_id and c.status = 'pending' and c.event_position > d.event_position
             order by c.event_position limit 1) n
          where d.status <> 'pending'
            and not exists (select 1 from webhooks.messages o
                             where o.endpoint_id = d.endpoint_id and o.status = 'pending'
                               and o.event_position < d.event_position)),
       picked as (
         select c.id from webhooks.messages c
          where c.id in (select id from next) and c.next_attempt_at <= now()
            and (c.lease_until is null or c.lease_until < now())
          for update of c skip locked)
       update webhooks.messages m
          set lease_until = now() + make_interval(secs => ?::double precision / 1000), attempts = m.attempts + 1
         from picked, webhooks.events ev, webhooks.endpoints ep
        where m.id = picked.id and ev.id = m.event_id and ep.id = m.endpoint_id
        returning m.id, m.event_id, m.endpoint_id, m.organization_id, m.attempts, ev.payload, ep.url, ep.secret,
                  ep.enabled, ep.deleted_at`,
      [
        JSON.stringify(
          rows.map(({ message, result, status, delayMs }) => ({
            message_id: message.id,
            endpoint_id: message.endpoint_id,
            organization_id: message.organization_id,
            attempt: message.attempts,
            succeeded: result.succeeded,
            http_code: result.httpCode,
            response: result.response,
            duration_ms: result.durationMs,
            error: result.error,
            status,
            delay_ms: delayMs,
          })),
        ),
        this.policy.leaseMs,
      ],
    );
    // After an event's last attempt failed: the disable rule, in its own transaction (rare).
    for (const r of rows)
      if (r.status === 'failed') await this.orm.em.fork().transactional(tx => this.disableIfFailing(tx, r.message));
    for (const { message, result } of batch)
      if (!result.succeeded)
        this.logger.debug(
          { messageId: message.id, attempt: message.attempts, httpCode: result.httpCode, error: result.error },
          'webhook delivery failed',
        );
    return claimed;
  }

  /** Polar's rule: the endpoint's 10 most recent finished events all failed → disabled, owner told. */
  private async disableIfFailing(
    em: Parameters<Parameters<MikroORM['em']['transactional']>[0]>[0],
    message: ClaimedMessage,
  ): Promise<void> {
    const recent = await em.execute<{ status: string }[]>(
      `select status from webhooks.messages where endpoint_id = ? and status in ('succeeded', 'failed')
        order by event_position desc limit ?`,
      [message.endpoint_id, this.policy.failureThreshold],
    );
    if (recent.length < this.policy.failureThreshold || recent.some(r => r.status !== 'failed')) return;
    const disabled = await em.execute<{ id: string; url: string }[]>(
      `update webhooks.endpoints set enabled = false, modified_at = now() where id = ? and enabled returning id, url`,
      [message.endpoint_id],
    );
    if (disabled.length === 0) return;
    await em.execute(
      `update webhooks.messages set status = 'skipped', lease_until = null, modified_at = now()
        where endpoint_id = ? and status = 'pending'`,
      [message.endpoint_id],
    );
    const text = `Webhook endpoint ${disabled[0].url} was disabled: its last ${this.policy.failureThreshold} events all failed.`;
    await em.execute(
      `insert into webhooks.notifications (id, organization_id, endpoint_id, kind, message, created_at)
       values (gen_random_uuid(), ?, ?, 'endpoint_disabled', ?, now())`,
      [message.organization_id, message.endpoint_id, text],
    );
    this.logger.warn(
      { organizationId: message.organization_id, endpointId: message.endpoint_id },
      'webhook endpoint disabled after consecutive failures; owner notified',
    );
  }
}
