import type { EnvironmentName, RateLimit, RateLimitRuleName } from '../../../kit/config.js';

/**
 * Every rate limit, declared once (docs/interface.md#limits, docs/polar/rate-limits.md). Configuration
 * (`RATE_LIMIT_RULES`, `SANDBOX_RATE_LIMIT_RULES`) may change a rule's limits, never its paths.
 *
 * - `ip` counts every request of a client address (health probes aside), before anything else runs.
 * - A *zone* is a path pattern with its own counters, keyed by the caller (its address when anonymous).
 *   As in Polar, the first zone matching the request replaces `principal` for it.
 * - `principal` counts the API (`/v1/…`, `/graphql`) per organization, customer, OAuth client or user,
 *   or per address for anonymous callers.
 */
export interface Zone {
  name: Exclude<RateLimitRuleName, 'principal' | 'ip'>;
  /** Matched against the path without its query; methods absent = every method. */
  pattern: RegExp;
  methods?: readonly string[];
  /**
   * The environments the zone holds in. Every zone is production's: in the sandbox, where merchants'
   * test suites confirm checkouts and check license keys from one address, only the per-caller and
   * per-address limits hold (issue 13; Polar keeps the license-key zone in its sandbox too).
   */
  environments: readonly EnvironmentName[];
  /** Once a limit is exceeded, the caller is refused on this zone for this long (Polar's `block_time`). */
  blockSeconds: number;
}

export const DEFAULT_LIMITS: Record<RateLimitRuleName, readonly RateLimit[]> = {
  principal: [{ points: 300, seconds: 60 }],
  ip: [{ points: 100, seconds: 1 }],
  license_keys: [{ points: 3, seconds: 1 }],
  checkout_confirm: [
    { points: 6, seconds: 60 },
    { points: 20, seconds: 3600 },
  ],
  sign_in: [
    { points: 6, seconds: 60 },
    { points: 12, seconds: 3600 },
  ],
  // Batches of up to 1,000 events: 50 a second is 5,000-50,000 events/s per caller (docs/limits.md).
  event_ingest: [{ points: 50, seconds: 1 }],
};

const PRODUCTION: readonly EnvironmentName[] = ['production'];
const BOTH: readonly EnvironmentName[] = ['production', 'sandbox'];

export const ZONES: readonly Zone[] = [
  {
    // Unauthenticated license key checks (rest-adapter/v1/routes/license-keys.routes.ts).
    name: 'license_keys',
    pattern: /^\/v1\/customer-portal\/license-keys\/(validate|activate|deactivate)\/?$/,
    environments: PRODUCTION,
    blockSeconds: 60,
  },
  {
    // Polar's `/v1/checkouts/.+/confirm` (the client-secret path included); the endpoint arrives with checkouts.
    name: 'checkout_confirm',
    pattern: /^\/v1\/checkouts\/.+\/confirm\/?$/,
    methods: ['POST'],
    environments: PRODUCTION,
    blockSeconds: 1800,
  },
  {
    // Password sign-in and sign-up pages, Polar's one-time-code and customer-session logins, and the
    // customer portal pages' code forms (which call the latter in-process); the portal's e-mail change
    // request and its portal form, which e-mail an address the caller chooses.
    name: 'sign_in',
    pattern:
      /^(\/login|\/signup|\/v1\/login-code\/(request|authenticate)|\/v1\/customer-portal\/customer-session\/(request|authenticate)|\/v1\/customer-portal\/customers\/me\/email-update\/request|\/portal\/[^/]+\/(request|authenticate|email))\/?$/,
    methods: ['POST'],
    environments: PRODUCTION,
    blockSeconds: 900,
  },
  {
    // The usage ingest (docs/usage-events.md): the hot path, counted apart from the caller's 300/min so a
    // metered product can send usage without spending its API budget, and in the sandbox too (merchants rehearse
    // usage there at production rates). No block: a client that slows down is served again next second.
    name: 'event_ingest',
    pattern: /^\/v1\/events\/ingest\/?$/,
    methods: ['POST'],
    environments: BOTH,
    blockSeconds: 0,
  },
];

/** Paths never limited: probes must see the process as it is. */
export const UNLIMITED_PATHS = new Set(['/healthz', '/readyz']);

/** Paths the `principal` rule counts (the pages and OAuth pages outside /v1 only see the `ip` rule). */
export function isApiCall(path: string): boolean {
  return path.startsWith('/v1/') || path === '/graphql';
}

export function zoneOf(environment: EnvironmentName, method: string, path: string): Zone | undefined {
  return ZONES.find(
    z => z.environments.includes(environment) && (!z.methods || z.methods.includes(method)) && z.pattern.test(path),
  );
}

/** The rules of one environment: the defaults with the configured changes on top. */
export function limitsOf(
  configured: Partial<Record<RateLimitRuleName, RateLimit[]>>,
): Record<RateLimitRuleName, readonly RateLimit[]> {
  return { ...DEFAULT_LIMITS, ...configured };
}
