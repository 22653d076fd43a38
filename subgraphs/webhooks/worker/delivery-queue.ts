import { randomUUID } from 'node:crypto';
import { recordOwnerNotice } from '../../../kit/email/owner-notices.js';
import { endpointDisabledEmail } from '../notifications/endpoint-disabled.email.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../../kit/logger.js';
import { SAFETY_POLL_MS } from '../../../kit/background/background-work.js';
import { type DeliveryPolicy, retryDelayMs } from './delivery-policy.js';
import type { SendResult } from './delivery-sender.js';
import { type ClaimedMessage, type RecordedAttempt, WebhookMessageRepository } from './webhook-message.repository.js';

export type { ClaimedMessage };

/** What became of a claimed message: an attempt that finished, or a lease handed back unsent. */
export type Outcome = { message: ClaimedMessage; result: SendResult } | { message: ClaimedMessage; released: true };

/**
 * At most this many consecutive messages of one endpoint are leased by one claim (a chain). A claim
 * costs PostgreSQL about 0.12 ms per message with chains of 16 and 0.07 with 32 (64 saves no more);
 * the half-lease rule of the worker bounds what a slow endpoint's long chain holds.
 */
export const CHAIN_LENGTH = 32;

/**
 * Webhook delivery's queue: `webhooks.messages` (one row per event and endpoint), in each endpoint's
 * event order; its SQL is in webhook-message.repository.ts.
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
  private readonly messages: WebhookMessageRepository;

  constructor(
    private readonly orm: MikroORM,
    private readonly policy: DeliveryPolicy,
    private readonly logger: Logger,
    /** Called after a disable committed (the notification relay hands its e-mail over at once). */
    private readonly onDisabled: () => void = () => undefined,
  ) {
    this.messages = new WebhookMessageRepository(orm);
  }

  /** Leases chains of up to `endpoints` endpoints, ordered by endpoint and then event order. */
  claim(endpoints: number): Promise<ClaimedMessage[]> {
    return this.messages.claim(endpoints, CHAIN_LENGTH, this.policy.leaseMs);
  }

  /**
   * How long an idle worker may sleep: until the earliest endpoint's next message can be claimed (the
   * head of its queue due and not leased: a retry's backoff, a dead worker's lease), at least 5 ms, at
   * most SAFETY_POLL_MS (nothing pending: only a wake-up). The same heads the claim takes: a message
   * queued behind a head that waits for its retry waits with it, and does not keep the worker polling.
   */
  async idleMs(): Promise<number> {
    const ms = await this.messages.nextClaimableInMs();
    const due = ms ?? SAFETY_POLL_MS;
    return Math.min(SAFETY_POLL_MS, Math.max(5, Math.ceil(due)));
  }

  /** A disabled or deleted endpoint's messages are skipped, not sent. */
  async skip(messages: ClaimedMessage[]): Promise<void> {
    await this.messages.skip(messages);
  }

  /**
   * Records finished attempts (a delivery row each, and each message's new state) and hands back the
   * leases of messages left unsent (their attempt uncounted), in one statement: one round trip, atomic.
   */
  async record(batch: Outcome[]): Promise<void> {
    const rows = batch.map((outcome): RecordedAttempt => {
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
    await this.messages.record(rows);
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
    const endpointId = failed.endpoint_id as string;
    const recent = await this.messages.recentFinishedStatuses(em, endpointId, this.policy.failureThreshold);
    if (recent.length < this.policy.failureThreshold || recent.some(status => status !== 'failed')) return false;
    const url = await this.messages.disableEndpoint(em, endpointId);
    if (url === null) return false;
    await this.messages.skipPendingOf(em, endpointId);
    const notification = {
      id: randomUUID(),
      organization_id: failed.organization_id as string,
      endpoint_id: failed.endpoint_id as string,
      message: `Webhook endpoint ${url} was disabled: its last ${this.policy.failureThreshold} events all failed.`,
      created_at: new Date(),
      url,
    };
    await this.messages.insertDisabledNotification(em, notification);
    await recordOwnerNotice(em, 'webhooks', endpointDisabledEmail(notification));
    this.logger.warn(
      { organizationId: failed.organization_id, endpointId: failed.endpoint_id },
      'webhook endpoint disabled after consecutive failures; its owners are e-mailed',
    );
    return true;
  }
}
