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

const BATCH = 32;

/**
 * Delivers queued messages (one per event and endpoint) from PostgreSQL, at least once:
 *
 * 1. **Claim** in one statement: due pending messages with no older pending message to the same
 *    endpoint (per-endpoint order: an event waits while an older one is undelivered), locked with
 *    `FOR UPDATE SKIP LOCKED` so workers never take the same row, leased for `leaseMs` and their
 *    attempt counted. The claim commits before any HTTP: no lock or connection is held across a call.
 * 2. **Send** the stored bytes, signed for this attempt (webhook-id = the message id, unchanged across
 *    attempts and redeliveries).
 * 3. **Record** the attempt (a delivery row) and the message's new state, fenced on the attempt number,
 *    so a worker whose lease ran out cannot overwrite the attempt of the worker that re-claimed it.
 *
 * A worker that dies after the claim leaves the lease to expire; the message is claimed again and sent
 * with the same webhook-id (a receiver dedupes on it). Nothing is lost; a duplicate carries the same id.
 */
export class DeliveryWorker {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;

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

  /** Something was queued: look now instead of after the poll interval. */
  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    this.sender.close();
  }

  /** Claims and delivers one batch; the number of messages handled (0: nothing was due). */
  async runOnce(): Promise<number> {
    const claimed = await this.claim();
    await Promise.all(claimed.map(message => this.deliver(message)));
    return claimed.length;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let pause = 0;
      try {
        if ((await this.runOnce()) === 0) pause = await this.idleMs();
      } catch (error) {
        this.logger.error({ err: error }, 'webhook delivery loop failed; retrying');
        pause = 1000;
      }
      if (pause > 0 && this.running) await this.sleep(pause);
    }
  }

  private sleep(ms: number): Promise<void> {
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

  private claim(): Promise<ClaimedMessage[]> {
    return this.orm.em.fork().execute<ClaimedMessage[]>(
      `update webhooks.messages m
          set lease_until = now() + make_interval(secs => ?::double precision / 1000), attempts = m.attempts + 1
         from (select c.id from webhooks.messages c
                where c.status = 'pending' and c.next_attempt_at <= now()
                  and (c.lease_until is null or c.lease_until < now())
                  and not exists (select 1 from webhooks.messages o
                                   where o.endpoint_id = c.endpoint_id and o.status = 'pending'
                                     and o.event_position < c.event_position)
                order by c.next_attempt_at, c.event_position
                limit ? for update of c skip locked) picked,
              webhooks.events ev, webhooks.endpoints ep
        where m.id = picked.id and ev.id = m.event_id and ep.id = m.endpoint_id
        returning m.id, m.event_id, m.endpoint_id, m.organization_id, m.attempts, ev.payload, ep.url, ep.secret,
                  ep.enabled, ep.deleted_at`,
      [this.policy.leaseMs, BATCH],
    );
  }

  private async deliver(message: ClaimedMessage): Promise<void> {
    const em = this.orm.em.fork();
    if (!message.enabled || message.deleted_at) {
      await em.execute(
        `update webhooks.messages set status = 'skipped', lease_until = null, modified_at = now() where id = ? and attempts = ?`,
        [message.id, message.attempts],
      );
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
    await this.record(message, result);
  }

  private async record(message: ClaimedMessage, result: SendResult): Promise<void> {
    const final = result.succeeded || message.attempts >= this.policy.maxAttempts;
    const status = result.succeeded ? 'succeeded' : final ? 'failed' : 'pending';
    const delayMs = final ? 0 : retryDelayMs(message.attempts, this.policy);
    await this.orm.em.fork().transactional(async em => {
      await em.execute(
        `insert into webhooks.deliveries (id, message_id, endpoint_id, organization_id, attempt, succeeded, http_code, response, duration_ms, error, created_at)
         values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, ?, now())`,
        [
          message.id,
          message.endpoint_id,
          message.organization_id,
          message.attempts,
          result.succeeded,
          result.httpCode,
          result.response,
          result.durationMs,
          result.error,
        ],
      );
      await em.execute(
        `update webhooks.messages
            set status = ?, last_http_code = ?, lease_until = null, modified_at = now(),
                next_attempt_at = now() + make_interval(secs => ?::double precision / 1000)
          where id = ? and attempts = ? and status = 'pending'`,
        [status, result.httpCode, delayMs, message.id, message.attempts],
      );
      if (status === 'failed') await this.disableIfFailing(em, message);
    });
    if (!result.succeeded)
      this.logger.debug(
        { messageId: message.id, attempt: message.attempts, httpCode: result.httpCode, error: result.error },
        'webhook delivery failed',
      );
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
