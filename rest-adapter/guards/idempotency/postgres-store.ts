import pg from 'pg';
import { DEFAULT_DATABASE_WAITS, type DatabaseWaits } from '../../../kit/config.js';
import { forgetEndedSessions } from '../../../kit/database/ended-sessions.js';
import { pooledConnectionSettings } from '../../../kit/database/waits.js';
import {
  backgroundWork,
  type Enrolment,
  SAFETY_POLL_MS,
  type WorkPass,
} from '../../../kit/background/background-work.js';
import { type Claim, DEFAULT_TIMES, type IdempotencyStore, type StoreTimes, answerOf } from './store.js';

/**
 * Idempotency keys in the environment's PostgreSQL, in the REST adapter's own schema `edge` (no
 * subgraph reads it). The table is created at start-up, under an advisory lock so processes starting
 * together do not race; it is the adapter's only table, so a migration framework would add nothing.
 */
const SCHEMA = `
create schema if not exists edge;
create table if not exists edge.idempotency_keys (
  scope text not null,
  key text not null,
  fingerprint text not null,
  status integer,
  content_type text,
  body bytea,
  expires_at timestamptz not null,
  primary key (scope, key)
);
create index if not exists idempotency_keys_expires_at on edge.idempotency_keys (expires_at);
`;

/** A failed sweep (the database unreachable) is tried again after this; a reused expired key is reclaimed at once anyway. */
const SWEEP_ERROR_PAUSE_MS = 60_000;

/**
 * When the sweep of expired keys runs: never before the earliest known key expires, never sooner than
 * `spacingMs` after the last sweep (the table only needs keeping small; a reused expired key is taken
 * over by its claim), and looking again at least every `pollMs` (no statement while nothing is due).
 */
export interface SweepTimes {
  spacingMs: number;
  pollMs: number;
}

const DEFAULT_SWEEP_TIMES: SweepTimes = { spacingMs: 10 * 60_000, pollMs: SAFETY_POLL_MS };

export class PostgresIdempotencyStore implements IdempotencyStore {
  readonly kind = 'postgres';
  /** The sweep of expired keys, a worker on the process's background-work spine (docs/background-work.md). */
  private readonly sweeper: Enrolment;
  /**
   * When the earliest key this process knows of expires (read at open and each sweep, lowered by its own claims):
   * before that a sweep has nothing to delete and runs no statement, so an idle service costs nothing.
   */
  private earliestExpiry = 0;
  private lastSweepAt = Number.NEGATIVE_INFINITY;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly times: StoreTimes,
    private readonly sweepTimes: SweepTimes,
  ) {
    // No topic wakes it (nothing notifies a claim): it is due when SweepTimes say, and looks again at
    // every poll, which costs no statement while nothing is due.
    this.sweeper = backgroundWork.enrol({
      name: 'edge.idempotency_keys',
      topics: [],
      runDue: () => this.sweep(),
      failed: () => undefined,
      retryMs: SWEEP_ERROR_PAUSE_MS,
      errorPauseMs: SWEEP_ERROR_PAUSE_MS,
      safetyPollMs: sweepTimes.pollMs,
    });
  }

  static async open(
    databaseUrl: string,
    times: StoreTimes = DEFAULT_TIMES,
    waits: DatabaseWaits = DEFAULT_DATABASE_WAITS,
    sweepTimes: SweepTimes = DEFAULT_SWEEP_TIMES,
  ): Promise<PostgresIdempotencyStore> {
    // Its waits are bounded like the subgraphs' pools' (kit/database/waits.ts).
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 4,
      ...pooledConnectionSettings(waits, databaseUrl),
    });
    pool.on('error', () => undefined); // an idle client's broken connection is replaced on next use
    forgetEndedSessions(pool);
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(`select pg_advisory_xact_lock(hashtextextended('edge.idempotency_keys', 0))`);
      await client.query(SCHEMA);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      await pool.end();
      throw error;
    } finally {
      client.release();
    }
    const store = new PostgresIdempotencyStore(pool, times, sweepTimes);
    try {
      await store.readEarliestExpiry();
    } catch (error) {
      await store.close(); // leaves neither the pool nor the sweep behind
      throw error;
    }
    store.sweeper.start();
    return store;
  }

  async claim(scope: string, key: string, fingerprint: string): Promise<Claim> {
    const now = new Date(this.times.now());
    const leaseEnd = new Date(now.getTime() + this.times.leaseMs);
    // One statement claims the key: a new key is inserted; an expired one (a result past its
    // retention, or a claim whose process died) is taken over; a live one is left alone.
    for (let attempt = 0; attempt < 3; attempt++) {
      const claimed = await this.pool.query(
        `insert into edge.idempotency_keys as k (scope, key, fingerprint, expires_at)
         values ($1, $2, $3, $4)
         on conflict (scope, key) do update
           set fingerprint = excluded.fingerprint, status = null, content_type = null, body = null,
               expires_at = excluded.expires_at
           where k.expires_at <= $5
         returning 1`,
        [scope, key, fingerprint, leaseEnd, now],
      );
      if (claimed.rowCount) {
        // Due for the sweep from the lease's end (the claim's process may die); the next poll sees it.
        this.earliestExpiry = Math.min(this.earliestExpiry, leaseEnd.getTime());
        return this.claimed(scope, key, fingerprint);
      }
      const found = await this.pool.query<{
        fingerprint: string;
        status: number | null;
        content_type: string | null;
        body: Buffer | null;
      }>(
        'select fingerprint, status, content_type, body from edge.idempotency_keys where scope = $1 and key = $2 and expires_at > $3',
        [scope, key, now],
      );
      const row = found.rows[0];
      // Released or expired between the two statements: claim again.
      if (!row) continue;
      return answerOf(
        {
          fingerprint: row.fingerprint,
          response:
            row.status === null
              ? null
              : { status: row.status, contentType: row.content_type, body: row.body ?? Buffer.alloc(0) },
        },
        fingerprint,
      );
    }
    return { outcome: 'in_progress' };
  }

  private claimed(scope: string, key: string, fingerprint: string): Claim {
    // Only the claim that holds the row (same fingerprint, no result yet) may finish or drop it.
    const mine = 'scope = $1 and key = $2 and fingerprint = $3 and status is null';
    return {
      outcome: 'claimed',
      complete: async response => {
        await this.pool.query(
          `update edge.idempotency_keys set status = $4, content_type = $5, body = $6, expires_at = $7 where ${mine}`,
          [
            scope,
            key,
            fingerprint,
            response.status,
            response.contentType,
            response.body,
            new Date(this.times.now() + this.times.retentionMs),
          ],
        );
      },
      release: async () => {
        await this.pool.query(`delete from edge.idempotency_keys where ${mine}`, [scope, key, fingerprint]);
      },
    };
  }

  /** Deletes the expired keys when a sweep is due (SweepTimes); says when the next one is. */
  private async sweep(): Promise<WorkPass> {
    const now = this.times.now();
    if (now < this.sweepDueAt()) return { worked: false, nextDueInMs: this.nextSweepInMs(now) };
    await this.pool.query('delete from edge.idempotency_keys where expires_at <= $1', [new Date(now)]);
    await this.readEarliestExpiry();
    this.lastSweepAt = now;
    return { worked: true, nextDueInMs: this.nextSweepInMs(now) };
  }

  private sweepDueAt(): number {
    return Math.max(this.earliestExpiry, this.lastSweepAt + this.sweepTimes.spacingMs);
  }

  private nextSweepInMs(now: number): number | null {
    const due = this.sweepDueAt();
    return Number.isFinite(due) ? Math.max(1, due - now) : null;
  }

  /** Keys stored by other processes count too: their expiry is read here (at open and each sweep), not told. */
  private async readEarliestExpiry(): Promise<void> {
    const { rows } = await this.pool.query<{ at: Date | null }>(
      'select min(expires_at) as at from edge.idempotency_keys',
    );
    this.earliestExpiry = rows[0]?.at ? new Date(rows[0].at).getTime() : Number.POSITIVE_INFINITY;
  }

  async close(): Promise<void> {
    await this.sweeper.stop();
    await this.pool.end();
  }
}
