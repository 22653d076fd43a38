/**
 * When a failed delivery is tried again, and when an endpoint is given up on (docs/polar/webhooks.md,
 * docs/polar/webhooks.md#retries-and-disabling): up to 10 attempts per event; after the n-th failure the next attempt waits
 * min(base·2^n, max) with "equal jitter" (a uniform draw in [½·d, d]), so with Polar's base 2 s and
 * max 20 min about 4 s, 8 s, 16 s … 17 min, the whole ladder 17–34 minutes. An endpoint whose 10 most
 * recent finished events all failed is disabled.
 */
export interface DeliveryPolicy {
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a claim reserves a message for its worker (must exceed the 10 s request timeout). */
  leaseMs: number;
  failureThreshold: number;
  /**
   * How soon a worker with chains in flight looks again for more to claim. An idle one sleeps until the
   * next message falls due or one is queued (delivery-worker.ts).
   */
  pollMs: number;
}

export const POLAR_DELIVERY_POLICY: DeliveryPolicy = {
  maxAttempts: 10,
  retryBaseMs: 2000,
  retryMaxMs: 20 * 60 * 1000,
  leaseMs: 30_000,
  failureThreshold: 10,
  pollMs: 250,
};

/** The wait after the `failures`-th failed attempt (1-based). */
export function retryDelayMs(failures: number, policy: DeliveryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.retryBaseMs * 2 ** failures, policy.retryMaxMs);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Polar's policy with the operator's retry timings (kit/config.ts WEBHOOK_*). */
export function deliveryPolicyOf(config: {
  WEBHOOK_RETRY_BASE_MS: number;
  WEBHOOK_RETRY_MAX_MS: number;
  WEBHOOK_LEASE_MS: number;
}): DeliveryPolicy {
  return {
    ...POLAR_DELIVERY_POLICY,
    retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
    retryMaxMs: config.WEBHOOK_RETRY_MAX_MS,
    leaseMs: config.WEBHOOK_LEASE_MS,
  };
}
