import type { Principal } from './principal.js';

interface Entry {
  principal: Principal;
  /** When this cache entry stops being trusted. */
  staleAt: number;
  /** When the token itself expires (null: never). */
  tokenExpiresAt: number | null;
}

/**
 * Short-lived memory of resolved bearers, keyed by token hash, so a burst of requests with one token
 * costs one lookup. Writes that change what a principal may do (revocation, memberships) invalidate
 * entries in this process at once; other processes see the change within `ttlMs`.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
  ) {}

  get(tokenHash: string, nowMs: number): Principal | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.staleAt <= nowMs || (entry.tokenExpiresAt !== null && entry.tokenExpiresAt <= nowMs)) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.principal;
  }

  set(tokenHash: string, principal: Principal, nowMs: number, tokenExpiresAt: Date | null): void {
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

  /** Drops every cached principal matching the predicate (a revoked token, a user whose memberships changed). */
  invalidate(matches: (principal: Principal) => boolean): void {
    for (const [hash, entry] of this.entries) if (matches(entry.principal)) this.entries.delete(hash);
  }

  clear(): void {
    this.entries.clear();
  }
}
