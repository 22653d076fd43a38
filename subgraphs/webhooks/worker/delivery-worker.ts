import type { MikroORM } from '@mikro-orm/postgresql';
import { backgroundWork, type Enrolment, type WorkPass } from '../../../kit/background/background-work.js';
import type { Logger } from '../../../kit/logger.js';
import { metricsOn, webhookDeliveries } from '../../../kit/metrics/metrics.js';
import type { DeliveryPolicy } from './delivery-policy.js';
import { type ClaimedMessage, DeliveryQueue, type Outcome } from './delivery-queue.js';
import { type DeliverySender, WEBHOOK_USER_AGENT } from './delivery-sender.js';
import { signerFor } from './delivery-signature.js';

/** The topic webhooks.messages' trigger notifies when a message becomes due to send (kit/database/work-signals.ts). */
export const QUEUED_TOPIC = 'webhooks.queued';
/** At most this many endpoints' chains in flight per worker (one request at a time per endpoint). */
const MAX_IN_FLIGHT = 64;
/**
 * Statements recording finished attempts at the same time. One: attempts finishing meanwhile wait and go
 * in the next, bigger batch. Each statement costs PostgreSQL about as much as a dozen rows of it, so three
 * concurrent small batches cost the database a third more CPU per delivery for no faster stream
 * (bench/webhooks.ts, CPU ms per delivery).
 */
const MAX_RECORDERS = 1;

/**
 * Delivers queued messages (one per event and endpoint) from PostgreSQL, at least once:
 *
 * 1. **Claim** (DeliveryQueue.claim): per endpoint, a chain of its oldest pending messages, leased and
 *    committed before any HTTP, so no lock or connection is held across a call.
 * 2. **Send** each chain in event order, one request at a time per endpoint (an event never overtakes an
 *    older one to the same endpoint), signed for this attempt (webhook-id = the message id, unchanged
 *    across attempts and redeliveries). Chains of different endpoints run concurrently, up to
 *    MAX_IN_FLIGHT; a slow endpoint holds only its own queue. A failed attempt ends its chain: the
 *    messages after it are handed back unsent and wait for its retry. So does a chain about to outlive
 *    its lease.
 * 3. **Record** finished attempts in batches (a delivery row each, and each message's new state), one
 *    statement at a time (MAX_RECORDERS); the sends go on meanwhile. When a chain is done and recorded,
 *    the loop claims that endpoint's next chain.
 *
 * A worker that dies after a claim leaves the leases to expire; the messages are claimed again and sent
 * with the same webhook-ids (a receiver dedupes on them). Nothing is lost; a duplicate carries the same id.
 * One round trip per chain and a few per batch of records, instead of two per event, is what lets a
 * single worker keep up with a bare HTTP client (bench/webhooks.ts).
 *
 * Its passes run on the background-work spine (kit/background/): a pass claims what it has room for
 * and launches those chains, which go on after the pass. With nothing in flight the worker sleeps until
 * the next message falls due (a retry's backoff, a dead worker's lease running out: `DeliveryQueue.idleMs`),
 * or until a message is queued: in this process (`wake()`), or by any process on the database (the
 * messages trigger notifies QUEUED_TOPIC, `listen`). With nothing pending it does not query.
 */
export class DeliveryWorker {
  private readonly queue: DeliveryQueue;
  private running = false;
  private readonly loop: Enrolment;
  private readonly inFlight = new Set<Promise<void>>();
  private finished: Outcome[] = [];
  private readonly recording = new Set<Promise<void>>();

  constructor(
    orm: MikroORM,
    private readonly sender: DeliverySender,
    private readonly policy: DeliveryPolicy,
    private readonly logger: Logger,
    /** The `environment` label of its delivery counts. */
    private readonly environment: string,
    /** After this worker disabled an endpoint (wakes the notification relay when it runs in-process). */
    onEndpointDisabled?: () => void,
  ) {
    this.queue = new DeliveryQueue(orm, policy, logger, onEndpointDisabled);
    this.loop = backgroundWork.enrol({
      name: 'webhooks.delivery',
      topics: [QUEUED_TOPIC],
      runDue: () => this.pass(),
      failed: error => this.logger.error({ err: error }, 'webhook delivery loop failed; retrying'),
      retryMs: this.policy.pollMs,
      errorPauseMs: 1000,
    });
  }

  /** Wakes at every commit that queues a message on this database (by any process); resolves once listening. */
  listen(databaseUrl: string): Promise<void> {
    return this.loop.listen(databaseUrl);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop.start();
  }

  /** Something was queued or recorded: look now instead of after the poll interval. */
  wake(): void {
    this.loop.wake();
  }

  /** Ends the passes, lets the chains in flight finish (or hand back what they have not sent) and records them. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop.stop();
    await Promise.all(this.inFlight);
    while (this.recording.size > 0) await Promise.all(this.recording);
    this.sender.close();
  }

  /** Claims chains for the room left and launches them; they go on after the pass. */
  private async pass(): Promise<WorkPass> {
    const room = MAX_IN_FLIGHT - this.inFlight.size;
    const chains = room > 0 ? byEndpoint(await this.queue.claim(room)) : [];
    for (const chain of chains) this.launch(chain);
    if (chains.length > 0) return { worked: true, nextDueInMs: 0 };
    // Nothing new: wait for a finished chain to be recorded (it frees its endpoint's next events),
    // or, with nothing in flight, for the next message to fall due or be queued.
    return { worked: false, nextDueInMs: this.inFlight.size > 0 ? this.policy.pollMs : await this.queue.idleMs() };
  }

  private launch(chain: ClaimedMessage[]): void {
    const task: Promise<void> = this.deliverChain(chain)
      .catch(error => this.logger.error({ err: error }, 'webhook chain failed; its leases will expire'))
      .finally(() => this.inFlight.delete(task));
    this.inFlight.add(task);
  }

  private async deliverChain(chain: ClaimedMessage[]): Promise<void> {
    const [first] = chain;
    if (!first.enabled || first.deleted_at) {
      await this.queue.skip(chain);
      this.wake();
      return;
    }
    const claimedAt = performance.now();
    const sign = signerFor(first.secret);
    for (let i = 0; i < chain.length; i++) {
      // The first message always goes (as a one-message claim would); a later one only while half the
      // lease is left, which covers one more request (the lease exceeds the 10 s request timeout).
      const outOfTime = i > 0 && performance.now() - claimedAt > this.policy.leaseMs / 2;
      if (!this.running || outOfTime) {
        this.finish(chain.slice(i).map(message => ({ message, released: true as const })));
        return;
      }
      const result = await this.send(chain[i], sign);
      if (result.succeeded) {
        this.finish([{ message: chain[i], result }]);
        continue;
      }
      this.finish([
        { message: chain[i], result },
        ...chain.slice(i + 1).map(message => ({ message, released: true as const })),
      ]);
      return;
    }
  }

  private send(message: ClaimedMessage, sign: ReturnType<typeof signerFor>) {
    const body = Buffer.from(message.payload, 'utf8');
    const timestamp = Math.floor(Date.now() / 1000);
    return this.sender.send(
      message.url,
      {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'webhook-id': message.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': sign(message.id, timestamp, body),
      },
      body,
    );
  }

  private finish(outcomes: Outcome[]): void {
    this.finished.push(...outcomes);
    if (metricsOn())
      for (const outcome of outcomes)
        webhookDeliveries.inc({
          environment: this.environment,
          outcome: 'result' in outcome ? (outcome.result.succeeded ? 'succeeded' : 'failed') : 'released',
        });
    for (const outcome of outcomes)
      if ('result' in outcome && !outcome.result.succeeded)
        this.logger.debug(
          {
            messageId: outcome.message.id,
            attempt: outcome.message.attempts,
            httpCode: outcome.result.httpCode,
            error: outcome.result.error,
          },
          'webhook delivery failed',
        );
    this.recordFinished();
  }

  /**
   * Records every finished attempt not yet recorded, in up to MAX_RECORDERS statements at a time:
   * attempts that finish meanwhile are recorded together by the next one.
   */
  private recordFinished(): void {
    while (this.recording.size < MAX_RECORDERS && this.finished.length > 0) {
      const batch = this.finished.splice(0);
      const task: Promise<void> = this.queue
        .record(batch)
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
}

/** The claimed rows as one chain per endpoint, each in event order. */
function byEndpoint(messages: ClaimedMessage[]): ClaimedMessage[][] {
  const chains = new Map<string, ClaimedMessage[]>();
  for (const message of messages) {
    const chain = chains.get(message.endpoint_id);
    if (chain) chain.push(message);
    else chains.set(message.endpoint_id, [message]);
  }
  // Positions are bigint strings without sign or leading zeros: the shorter is the smaller.
  for (const chain of chains.values())
    chain.sort((a, b) =>
      a.event_position.length === b.event_position.length
        ? a.event_position < b.event_position
          ? -1
          : a.event_position > b.event_position
            ? 1
            : 0
        : a.event_position.length - b.event_position.length,
    );
  return [...chains.values()];
}
