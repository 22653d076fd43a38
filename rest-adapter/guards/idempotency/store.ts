/**
 * Where idempotency keys live (docs/limits.md): PostgreSQL
 * when the adapter has a database (embedded), Redis when it has none (distributed), memory otherwise.
 * Every store claims a key atomically, so of two concurrent requests with one key exactly one runs.
 */
export interface StoredResponse {
  status: number;
  contentType: string | null;
  body: Buffer;
}

export type Claim =
  | { outcome: 'claimed'; complete(response: StoredResponse): Promise<void>; release(): Promise<void> }
  /** The key's first request is still running. */
  | { outcome: 'in_progress' }
  /** The key was used with another method, path or body. */
  | { outcome: 'mismatch' }
  | { outcome: 'replay'; response: StoredResponse };

export interface IdempotencyStore {
  readonly kind: 'postgres' | 'redis' | 'memory';
  /** `scope` is the tenant (organization, user or customer): keys are never shared across tenants. */
  claim(scope: string, key: string, fingerprint: string): Promise<Claim>;
  close(): Promise<void>;
}

export interface StoreTimes {
  /** How long a result is replayed (Stripe: 24 h). */
  retentionMs: number;
  /**
   * How long a claim holds without a result: a process that died mid-request frees its keys after
   * this, and a retry then runs the request again.
   */
  leaseMs: number;
  now: () => number;
}

export const DEFAULT_TIMES: StoreTimes = { retentionMs: 24 * 3600_000, leaseMs: 60_000, now: () => Date.now() };

/** What a stored entry answers to a new claim with `fingerprint`. */
export function answerOf(
  entry: { fingerprint: string; response: StoredResponse | null },
  fingerprint: string,
): Exclude<Claim, { outcome: 'claimed' }> {
  if (entry.fingerprint !== fingerprint) return { outcome: 'mismatch' };
  if (!entry.response) return { outcome: 'in_progress' };
  return { outcome: 'replay', response: entry.response };
}

interface MemoryEntry {
  fingerprint: string;
  response: StoredResponse | null;
  expiresAt: number;
}

/** One process's keys: the distributed adapter without Redis, and its fallback while Redis is down. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly kind = 'memory';
  private readonly entries = new Map<string, MemoryEntry>();
  private claims = 0;

  constructor(private readonly times: StoreTimes = DEFAULT_TIMES) {}

  async claim(scope: string, key: string, fingerprint: string): Promise<Claim> {
    const id = JSON.stringify([scope, key]);
    const now = this.times.now();
    if (++this.claims % 1000 === 0) this.sweep(now);
    const entry = this.entries.get(id);
    if (entry && entry.expiresAt > now) return answerOf(entry, fingerprint);
    const mine: MemoryEntry = { fingerprint, response: null, expiresAt: now + this.times.leaseMs };
    this.entries.set(id, mine);
    return {
      outcome: 'claimed',
      complete: async response => {
        if (this.entries.get(id) !== mine) return;
        mine.response = response;
        mine.expiresAt = this.times.now() + this.times.retentionMs;
      },
      release: async () => {
        if (this.entries.get(id) === mine) this.entries.delete(id);
      },
    };
  }

  async close(): Promise<void> {
    this.entries.clear();
  }

  private sweep(now: number): void {
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
  }
}
