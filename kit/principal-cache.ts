import { randomBytes } from 'node:crypto';
import type { Principal, SubjectKind } from './principal.js';
import { inSpan } from './tracing/tracing.js';

interface Entry {
  principal: Principal;
  /** When this cache entry stops being trusted. */
  staleAt: number;
  /** When the token itself expires (null: never). */
  tokenExpiresAt: number | null;
}

/**
 * What stopped being true about some principals, as it travels between processes (a PostgreSQL
 * NOTIFY payload, so JSON and well under 8000 bytes): the token rows that were revoked or changed,
 * every credential of one subject (a user whose memberships changed, a deleted customer), or
 * everything (too many ids to list).
 */
export type PrincipalInvalidation =
  | { tokenIds: string[] }
  | { subject: Exclude<SubjectKind, 'anonymous'>; subjectId: string }
  | { all: true };

/** The NOTIFY channel every process holding a principal cache listens on (kit/database/principal-invalidations.ts). */
export const PRINCIPAL_INVALIDATION_CHANNEL = 'principal_invalidation';

/** More ids than this in one notification become `{all: true}`: a NOTIFY payload must stay under 8000 bytes. */
const MAX_TOKEN_IDS = 100;

/** What the cache needs to announce a change: MikroORM's EntityManager (placeholders are `?`). */
export interface SqlExecutor {
  execute(sql: string, params?: unknown[]): Promise<unknown>;
  isInTransaction(): boolean;
}

/** Resolves once this process's listener has received (and applied) the notification carrying `nonce`. */
export type DeliveryWaiter = (nonce: string) => Promise<void>;

/** True when the invalidation concerns this principal. */
export function invalidates(invalidation: PrincipalInvalidation, principal: Principal): boolean {
  if ('all' in invalidation) return true;
  if ('tokenIds' in invalidation)
    return principal.tokenId !== null && invalidation.tokenIds.includes(principal.tokenId);
  return principal.subject === invalidation.subject && principal.subjectId === invalidation.subjectId;
}

/** A notification payload back into an invalidation; anything unreadable means "drop everything". */
export function parseInvalidation(payload: string | undefined): PrincipalInvalidation {
  try {
    const value = JSON.parse(payload ?? '') as Record<string, unknown>;
    if (Array.isArray(value.tokenIds) && value.tokenIds.every(id => typeof id === 'string'))
      return { tokenIds: value.tokenIds as string[] };
    if (
      (value.subject === 'user' || value.subject === 'organization' || value.subject === 'customer') &&
      typeof value.subjectId === 'string'
    )
      return { subject: value.subject, subjectId: value.subjectId };
  } catch {
    // fall through
  }
  return { all: true };
}

/**
 * Short-lived memory of resolved bearers, keyed by token hash, so a burst of requests with one token
 * costs one lookup.
 *
 * A write that changes what a principal may do (a revocation, a membership) calls `announce`: the
 * entry goes from this process at once, and a PostgreSQL NOTIFY tells every other process, whose
 * listener (kit/database/principal-invalidations.ts) evicts it there. Entries are trusted only while
 * such a listener is connected (`synchronized`): a cache that could miss a notification (never
 * attached, or its listen connection lost) answers nothing, so every request reads the database.
 * The TTL stays as a safety net against a notification lost in between (a process killed between
 * its commit and its NOTIFY).
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();
  private synchronized = false;
  private awaitDelivery: DeliveryWaiter | null = null;

  constructor(
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
  ) {}

  get(tokenHash: string, nowMs: number): Principal | undefined {
    if (!this.synchronized) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.staleAt <= nowMs || (entry.tokenExpiresAt !== null && entry.tokenExpiresAt <= nowMs)) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.principal;
  }

  set(tokenHash: string, principal: Principal, nowMs: number, tokenExpiresAt: Date | null): void {
    if (!this.synchronized) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(tokenHash, {
      principal,
      staleAt: nowMs + this.ttlMs,
      tokenExpiresAt: tokenExpiresAt?.getTime() ?? null,
    });
  }

  /** Drops the cached principals the invalidation concerns (in this process only). */
  evict(invalidation: PrincipalInvalidation): void {
    if ('all' in invalidation) {
      this.entries.clear();
      return;
    }
    for (const [hash, entry] of this.entries) if (invalidates(invalidation, entry.principal)) this.entries.delete(hash);
  }

  /**
   * Evicts here and tells every process on the same database (NOTIFY through `em`). Call it after
   * the change is committed: it then returns once this process's own listener has received the
   * notification, so every cache of this process (another stack on the same database included) has
   * dropped the entry before the caller answers. Inside a transaction PostgreSQL delivers the
   * notification at commit (never for a rollback), so there is nothing to wait for yet.
   */
  async announce(em: SqlExecutor, invalidation: PrincipalInvalidation): Promise<void> {
    const message =
      'tokenIds' in invalidation && invalidation.tokenIds.length > MAX_TOKEN_IDS
        ? { all: true as const }
        : invalidation;
    if ('tokenIds' in message && message.tokenIds.length === 0) return;
    this.evict(message);
    // `n` tells our own listener which notification is ours; other processes ignore it.
    const nonce = randomBytes(8).toString('base64url');
    const delivered = this.awaitDelivery && !em.isInTransaction() ? this.awaitDelivery(nonce) : undefined;
    await em.execute('select pg_notify(?, ?)', [
      PRINCIPAL_INVALIDATION_CHANNEL,
      JSON.stringify({ ...message, n: nonce }),
    ]);
    await delivered;
  }

  /**
   * Set by the listener: true once it listens (with the way to wait for a notification's delivery),
   * false when its connection is lost. Either way the entries go, since notifications may have been
   * missed while nobody listened.
   */
  setSynchronized(synchronized: boolean, awaitDelivery: DeliveryWaiter | null = null): void {
    this.entries.clear();
    this.synchronized = synchronized;
    this.awaitDelivery = synchronized ? awaitDelivery : null;
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * Runs the lookup of a credential the cache did not answer; in a trace it is the `principal` span
 * (docs/observability.md#traces), and a principal the cache answers has none. Every resolver calls this
 * after its cache missed, so the span's name and place are decided once.
 */
export function principalLookup<T>(lookUp: () => Promise<T>): Promise<T> {
  return inSpan('principal', {}, lookUp);
}
