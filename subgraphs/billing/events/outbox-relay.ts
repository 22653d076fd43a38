import type { MikroORM } from '@mikro-orm/postgresql';
import { backgroundWork, type Enrolment } from '../../../kit/background/background-work.js';
import type { Logger } from '../../../kit/logger.js';
import type { SourceEvent, WebhookIngest } from '../../webhooks/contract.js';
import { type OutboxRow, OutboxQueries } from './outbox.queries.js';

const BATCH = 100;
/** Another relay holds the batch lock: look again after this (it may die before it finishes). */
const LOCKED_OUT_RETRY_MS = 200;
/** The topic billing.events' insert trigger notifies (kit/database/work-signals.ts). */
export const OUTBOX_TOPIC = 'billing.outbox';
// One relay batch at a time per database, so events are handed over in outbox order.
const RELAY_LOCK_KEY = 7_301_102;

/**
 * Relays billing's outbox (`billing.events`) to the webhooks subgraph. Each batch is one billing
 * transaction: claim undispatched rows in (created_at, id) order with `FOR UPDATE SKIP LOCKED`, hand
 * them to `WebhookIngest` (in-process or signed JSON RPC), then set `dispatched_at`, then commit.
 * A crash before the commit leaves the rows undispatched and they are handed over again; ingestion is
 * idempotent on the row id, so nothing is lost and nothing doubled. A transaction-scoped advisory lock
 * lets only one relay run a batch at a time, which keeps the hand-over in outbox order (SKIP LOCKED
 * alone would let two relays hand over interleaved batches).
 *
 * It runs when an event is committed (the insert trigger notifies OUTBOX_TOPIC, which `listen` wakes
 * on), then batch after batch until the outbox is empty; with nothing undispatched it does not query.
 */
export class OutboxRelay {
  private readonly loop: Enrolment;

  constructor(
    private readonly orm: MikroORM,
    private readonly sink: WebhookIngest,
    private readonly logger: Logger,
  ) {
    this.loop = backgroundWork.enrol({
      name: 'billing.outbox',
      topics: [OUTBOX_TOPIC],
      runDue: async () => {
        const relayed = await this.relayOnce();
        if (relayed === null) return { worked: false, nextDueInMs: 0 };
        // A full batch: more may be waiting. Less: the outbox is empty until the next commit notifies.
        return { worked: relayed > 0, nextDueInMs: relayed === BATCH ? 0 : null };
      },
      failed: error => this.logger.error({ err: error }, 'outbox relay failed; retrying'),
      retryMs: LOCKED_OUT_RETRY_MS,
      errorPauseMs: 1000,
    });
  }

  /** Wakes at every commit of an event on this database (by any process); resolves once listening. */
  listen(databaseUrl: string): Promise<void> {
    return this.loop.listen(databaseUrl);
  }

  start(): void {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Hands over one batch; how many rows (0: nothing to do), or null when another relay is busy. */
  async relayOnce(): Promise<number | null> {
    return this.orm.em.fork().transactional(async em => {
      const outbox = new OutboxQueries(em);
      if (!(await outbox.tryBatchLock(RELAY_LOCK_KEY))) return null;
      const rows = await outbox.undispatched(BATCH);
      if (rows.length === 0) return 0;
      await this.sink.ingest(rows.map(toSourceEvent));
      await outbox.markDispatched(rows.map(r => r.id));
      return rows.length;
    });
  }
}

function toSourceEvent(row: OutboxRow): SourceEvent {
  return {
    id: row.id,
    organizationId: row.organization_id,
    type: row.type,
    payload: typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
