import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.js';
import { backgroundWork, type Enrolment } from '../background/background-work.js';
import type { OwnerEmail, OwnerMailbox } from './owner-mailbox.js';

/** After a failed pass (the mailbox unreachable): try again after this. */
const ERROR_PAUSE_MS = 2000;
/** How long a claimed notice is left to its relay before another may hand it over. */
const LEASE_SECONDS = 30;
/** How many handed-over keys a relay remembers for the hand-overs that ask after them (a few seconds' worth). */
const REMEMBERED_KEYS = 1000;

/** The subgraphs whose writes owe someone an e-mail, each with its own `<schema>.owner_notices`. */
export type NoticeSchema = 'identity' | 'billing' | 'webhooks';

/** What a notice needs of the caller's transaction (MikroORM's EntityManager; placeholders are `?`). */
export interface NoticeExecutor {
  execute(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * The outbox of owner e-mails for a subgraph that does not hold the mail queue itself (identity's leaked
 * tokens, webhooks' disabled endpoints), or whose e-mail must not depend on a call made after its commit
 * (billing's leaked customer sessions):
 * the composed e-mail is written in the transaction of the change it tells of, unique by its key, so
 * the change and the promise to tell of it commit together. A relay hands it to the owner mailbox.
 */
export async function recordOwnerNotice(em: NoticeExecutor, schema: NoticeSchema, email: OwnerEmail): Promise<void> {
  await em.execute(
    `insert into ${schema}.owner_notices (id, key, email, created_at) values (gen_random_uuid(), ?, ?::jsonb, now())
       on conflict (key) do nothing`,
    [email.key, JSON.stringify(email)],
  );
}

/**
 * Hands each notice not e-mailed yet to the owner mailbox (billing's outbox, in-process or signed RPC):
 * claim it for a lease (SKIP LOCKED: two relays never take the same one), queue it under its key, set
 * `emailed_at`. A relay that dies in between leaves the claim to run out, and the next one hands it over
 * again; the mailbox, idempotent by key, queues nothing more: one e-mail per recipient, whatever dies
 * when. The mailbox can be attached after start (identity starts before billing, whose mailbox it
 * uses); until then notices wait. A pass runs when a notice is committed (the insert trigger notifies
 * `<schema>.owner_notices`, see `listen`) and when a claim left by a relay that died runs out; with
 * nothing to hand over it does not query.
 */
export class OwnerNoticeRelay {
  private readonly loop: Enrolment;
  private mailbox: OwnerMailbox | null = null;
  /**
   * The pass in flight in this process (never rejects). Passes run one at a time: the loop may claim a
   * notice between its revocation's commit and the revocation's own hand-over, which then skips it
   * (claimed), and would answer before the loop has queued it; waiting for the loop's pass closes that.
   */
  private pass: Promise<unknown> = Promise.resolve();
  /** Recipients of the keys handed over lately by any pass of this process, oldest first. */
  private readonly handed = new Map<string, number>();

  constructor(
    private readonly orm: MikroORM,
    private readonly schema: NoticeSchema,
    private readonly logger?: Logger,
    errorPauseMs = ERROR_PAUSE_MS,
  ) {
    this.loop = backgroundWork.enrol({
      name: `${schema}.owner_notices`,
      topics: [`${schema}.owner_notices`],
      runDue: async () => {
        await this.relayOnce();
        return { worked: false, nextDueInMs: await this.nextClaimEndInMs() };
      },
      // Billing may be down: the notice stays and is handed over at the next try.
      failed: error => this.logger?.error({ err: error }, 'owner notice relay failed; retrying'),
      retryMs: errorPauseMs,
      errorPauseMs,
    });
  }

  /** Wakes at every commit of a notice on this database (by any process); resolves once listening. */
  listen(databaseUrl: string): Promise<void> {
    return this.loop.listen(databaseUrl);
  }

  /** Starts handing notices to `mailbox`: now, and whenever one is written or a claim runs out. */
  start(mailbox: OwnerMailbox): void {
    this.use(mailbox);
    this.loop.start();
  }

  /** Hands notices to `mailbox` from now on (tests swap in one that fails); runs passes only once started. */
  use(mailbox: OwnerMailbox): void {
    this.mailbox = mailbox;
  }

  /** A notice was just written: hand it over now (the notification would wake the loop a little later). */
  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * Hands over now what is waiting, for a caller that just committed the notice `key`: the recipients it
   * was queued to (by this pass or the poll's pass it waited for), or null when it could not be handed
   * over now (the mailbox unreachable or not yet attached, or another process's relay holding it); it
   * is then handed over by a later pass.
   */
  async handOver(key: string): Promise<number | null> {
    try {
      await this.relayOnce();
    } catch (error) {
      this.logger?.error({ err: error, key }, 'owner notice not handed over now; the relay retries');
    }
    const recipients = this.handed.get(key) ?? null;
    this.handed.delete(key);
    return recipients;
  }

  /**
   * Hands over every notice not e-mailed yet, after the pass in flight in this process; answers the
   * recipients of each key this pass handed over.
   */
  relayOnce(): Promise<Map<string, number>> {
    const next = this.pass.then(() => this.relayPass());
    this.pass = next.catch(() => undefined);
    return next;
  }

  private async relayPass(): Promise<Map<string, number>> {
    const handed = new Map<string, number>();
    const mailbox = this.mailbox;
    if (!mailbox) return handed;
    const connection = this.orm.em.getConnection();
    for (;;) {
      // Claimed for a lease in a statement of its own: no transaction (and so no pooled connection) is
      // held while the mailbox queues it, which in billing takes a connection of the same pool.
      const [row] = await connection.execute<{ id: string; key: string; email: OwnerEmail }[]>(
        `update ${this.schema}.owner_notices set claimed_until = now() + interval '${LEASE_SECONDS} seconds'
          where id = (select id from ${this.schema}.owner_notices
                       where emailed_at is null and (claimed_until is null or claimed_until < now())
                       order by created_at, id limit 1 for update skip locked)
          returning id, key, email`,
      );
      if (!row) return handed;
      const { recipients } = await mailbox.queue(row.email).catch(async (error: unknown) => {
        // Not handed over (billing unreachable, say): free it for the next pass rather than the lease's end.
        await connection.execute(`update ${this.schema}.owner_notices set claimed_until = null where id = ?`, [row.id]);
        throw error;
      });
      await connection.execute(`update ${this.schema}.owner_notices set emailed_at = now() where id = ?`, [row.id]);
      handed.set(row.key, recipients);
      this.remember(row.key, recipients);
    }
  }

  /**
   * Until the first claim of a notice not e-mailed yet runs out (a relay that died holding it), ≤ 0 when
   * one is free now (claimed meanwhile by a hand-over that is still under way), null when none waits.
   */
  private async nextClaimEndInMs(): Promise<number | null> {
    const [row] = await this.orm.em.getConnection().execute<{ ms: number | string | null }[]>(
      `select extract(epoch from (min(coalesce(claimed_until, now())) - now())) * 1000 as ms
           from ${this.schema}.owner_notices where emailed_at is null`,
    );
    return row?.ms == null ? null : Number(row.ms);
  }

  /** Kept for the hand-over of `key`, which may be waiting for this pass; the oldest go first. */
  private remember(key: string, recipients: number): void {
    this.handed.set(key, recipients);
    if (this.handed.size > REMEMBERED_KEYS) this.handed.delete(this.handed.keys().next().value as string);
  }
}
