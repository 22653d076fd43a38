import { z } from 'zod';

/**
 * The one place that reads `process.env`. Every process parses it once at start-up into a frozen,
 * typed object and passes it down; a bad value stops the process with a message naming the variable.
 */
const port = z.coerce.number().int().min(0).max(65535);

/** A value that may be given empty (as docker-compose passes unset variables): empty is absent. */
const optionalText = z
  .string()
  .trim()
  .transform(v => (v === '' ? undefined : v))
  .optional();
const optionalUrl = optionalText.pipe(z.url().optional());
/** `300/min`, `100/s`, `3/60s`, `6/min+12/h`: one or more limits, each points per window. */
export interface RateLimit {
  points: number;
  seconds: number;
}
const UNIT_SECONDS = { s: 1, min: 60, h: 3600 } as const;
const rateLimits = z.string().transform((text, ctx): RateLimit[] => {
  const limits: RateLimit[] = [];
  for (const part of text.split('+')) {
    const match = /^\s*(\d+)\/(\d*)(s|min|h)\s*$/.exec(part);
    const points = Number(match?.[1]);
    const seconds = Number(match?.[2] || 1) * UNIT_SECONDS[(match?.[3] ?? 's') as keyof typeof UNIT_SECONDS];
    if (!match || points < 1 || seconds < 1) {
      ctx.addIssue({ code: 'custom', message: `"${part}" is not a limit like 300/min, 100/s or 3/60s` });
      return z.NEVER;
    }
    limits.push({ points, seconds });
  }
  return limits;
});
/** The rate-limit rules that configuration may change (rest-adapter/guards/rate-limit/rules.ts has their defaults). */
export const RATE_LIMIT_RULE_NAMES = [
  'principal',
  'ip',
  'license_keys',
  'checkout_confirm',
  'sign_in',
  'event_ingest',
] as const;
export type RateLimitRuleName = (typeof RATE_LIMIT_RULE_NAMES)[number];
/** `name=limit,name=limit`, e.g. `principal=600/min,ip=200/s`. */
const rateLimitRules = z
  .string()
  .transform((text, ctx) => {
    const rules: Partial<Record<RateLimitRuleName, RateLimit[]>> = {};
    for (const entry of text.split(',').filter(e => e.trim())) {
      const [name, spec = ''] = entry.split('=').map(s => s.trim());
      const parsed = rateLimits.safeParse(spec);
      if (!RATE_LIMIT_RULE_NAMES.includes(name as RateLimitRuleName) || !parsed.success) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}": expected name=limit with name one of ${RATE_LIMIT_RULE_NAMES.join(', ')} and a limit like 300/min`,
        });
        return z.NEVER;
      }
      rules[name as RateLimitRuleName] = parsed.data;
    }
    return rules;
  })
  .default({});
/** `<id>=1000,<id>=5000`: the per-minute principal limit of an organization (or customer, OAuth client, user). */
const rateLimitOverrides = z
  .string()
  .transform((text, ctx) => {
    const overrides: Record<string, number> = {};
    for (const entry of text.split(',').filter(e => e.trim())) {
      const [id, value = ''] = entry.split('=').map(s => s.trim());
      if (!id || !/^\d+$/.test(value) || Number(value) < 1) {
        ctx.addIssue({ code: 'custom', message: `"${entry}": expected <id>=<requests per window>` });
        return z.NEVER;
      }
      overrides[id] = Number(value);
    }
    return overrides;
  })
  .default({});

/** The bounds of every wait on the database (docs/reliability.md#database-waits), in milliseconds. */
export interface DatabaseWaits {
  /** Taking a connection from a pool, or opening one. */
  acquireTimeoutMs: number;
  /** One statement (PostgreSQL's `statement_timeout`); 0: none. */
  statementTimeoutMs: number;
  /** One wait for a lock, row or advisory (`lock_timeout`); 0: none. */
  lockTimeoutMs: number;
  /** A transaction left open with nothing running (`idle_in_transaction_session_timeout`); 0: none. */
  idleInTransactionTimeoutMs: number;
  /** Statements and lock waits of the schema migrations at start-up; 0: none. */
  migrationTimeoutMs: number;
}

/** What a process uses when its configuration does not say (and what tools that open a pool of their own use). */
export const DEFAULT_DATABASE_WAITS: Readonly<DatabaseWaits> = Object.freeze({
  acquireTimeoutMs: 10_000,
  statementTimeoutMs: 30_000,
  lockTimeoutMs: 10_000,
  // Above the longest a payment processor call may take inside a transaction (Stripe: 30 s, two retries).
  idleInTransactionTimeoutMs: 120_000,
  migrationTimeoutMs: 0,
});

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('127.0.0.1'),
  PORT: port.default(8000),
  SANDBOX_PORT: port.default(8001),
  /**
   * Port of the Prometheus endpoint `GET /metrics` (docs/observability.md), a listener of its own,
   * never the public port. Unset, the default: no endpoint, and nothing is counted.
   */
  METRICS_PORT: z.preprocess(v => (typeof v === 'string' && v.trim() === '' ? undefined : v), port.optional()),
  /** Address the metrics endpoint binds to: loopback unless told otherwise (a scraper on another host). */
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** Public address of production (OIDC issuer, portal links); defaults to http://HOST:PORT. */
  PUBLIC_URL: optionalUrl,
  SANDBOX_PUBLIC_URL: optionalUrl,
  DATABASE_URL: optionalUrl,
  SANDBOX_DATABASE_URL: optionalUrl,
  /**
   * The same database as DATABASE_URL without a connection pooler in between, when DATABASE_URL goes
   * through PgBouncer in transaction pooling mode (docs/pgbouncer.md): LISTEN and the migrations' lock
   * use it, and DATABASE_URL is then used with nothing held in a session. Unset: DATABASE_URL.
   */
  DATABASE_DIRECT_URL: optionalUrl,
  /** The sandbox's, as DATABASE_DIRECT_URL is production's. Unset: DATABASE_DIRECT_URL's server, database name + `_sandbox`. */
  SANDBOX_DATABASE_DIRECT_URL: optionalUrl,
  /**
   * A streaming replica of DATABASE_URL's database (docs/read-replicas.md): the metrics, the exports and
   * the large lists read there; everything else, and every read after a write, reads DATABASE_URL.
   * Unset: everything reads DATABASE_URL, and no replica pool is opened.
   */
  DATABASE_READ_URL: optionalUrl,
  /** The sandbox's, as DATABASE_READ_URL is production's. Unset: DATABASE_READ_URL's server, database name + `_sandbox`. */
  SANDBOX_DATABASE_READ_URL: optionalUrl,
  /** Rate-limit counters (and the distributed adapter's idempotency keys) live there when set. */
  REDIS_URL: optionalUrl,
  /** Prefix of every Redis key this service writes, so deployments (and test runs) can share a Redis. */
  REDIS_KEY_PREFIX: z.string().default('billing:'),
  /**
   * How long one Redis command may take before the request falls back to per-process counters (a stopped
   * Redis never answers): short, so a request never waits on Redis (docs/limits.md).
   */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(250),
  /** `off` turns every rate limit off; the default is on, except under NODE_ENV=test. */
  RATE_LIMITS: z.enum(['on', 'off']).optional(),
  /** Changes to the default limits of rest-adapter/guards/rate-limit/rules.ts, production and sandbox separately. */
  RATE_LIMIT_RULES: rateLimitRules,
  SANDBOX_RATE_LIMIT_RULES: rateLimitRules,
  RATE_LIMIT_OVERRIDES: rateLimitOverrides,
  /**
   * Proxies whose X-Forwarded-For names the client (Express's `trust proxy`: addresses, CIDRs or
   * `loopback`, `linklocal`, `uniquelocal`, comma-separated). Unset: the socket's peer is the client.
   */
  TRUST_PROXY: optionalText,
  /** Where the embedded PostgreSQL and generated secrets live when no DATABASE_URL is given. */
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: port.default(54329),
  /**
   * Connections of each subgraph's pool, per environment (embedded: identity, billing and webhooks, for
   * production and sandbox each). 10, or 4 when NODE_ENV=test: the test suite runs several stacks at once
   * on one PostgreSQL and its max_connections.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).optional(),
  /**
   * Every wait on the database is bounded (docs/reliability.md#database-waits), in milliseconds:
   * taking a connection from a pool (or opening one), one statement, one lock wait, a transaction left
   * idle. A wait past its bound fails the request with 503 `ServiceUnavailable` instead of hanging it.
   * 0 turns a server-side limit off (the acquire timeout cannot be turned off).
   */
  DATABASE_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(1).default(DEFAULT_DATABASE_WAITS.acquireTimeoutMs),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(DEFAULT_DATABASE_WAITS.statementTimeoutMs),
  DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).default(DEFAULT_DATABASE_WAITS.lockTimeoutMs),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(DEFAULT_DATABASE_WAITS.idleInTransactionTimeoutMs),
  /**
   * Statement and lock timeout of schema migrations at start-up (an index built over a million rows
   * takes longer than a request may); 0, the default: none.
   */
  DATABASE_MIGRATION_TIMEOUT_MS: z.coerce.number().int().min(0).default(DEFAULT_DATABASE_WAITS.migrationTimeoutMs),
  /**
   * How long an advance of a sandbox clock waits for another advance of the same organization to end
   * before it answers 409 `SandboxClockBusy` (it waits holding no database connection).
   */
  SANDBOX_CLOCK_WAIT_MS: z.coerce.number().int().min(0).default(5000),
  /** HMAC key for token hashes. Generated and kept under DATA_DIR when absent. */
  SECRET: z.string().min(32).optional(),
  /** Key that signs the principal travelling gateway → subgraph in the distributed topology. */
  INTERNAL_KEY: z.string().min(32).optional(),
  /** Distributed topology: which environment this process serves, and where its peers are. */
  ENVIRONMENT: z.enum(['production', 'sandbox']).default('production'),
  GATEWAY_URL: optionalUrl,
  IDENTITY_URL: optionalUrl,
  BILLING_URL: optionalUrl,
  /** Distributed topology: the webhooks subgraph, which billing's outbox relay hands events to. */
  WEBHOOKS_URL: optionalUrl,
  /**
   * Webhook targets on loopback, private, link-local or other non-public addresses (also after DNS)
   * are refused in production unless this is `true`; the sandbox always allows them.
   */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform(v => v === 'true' || v === '1'),
  /** Retry backoff after the n-th failed attempt: min(base·2^n, max), with 50–100 % jitter (Polar's ladder). */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().positive().default(2000),
  WEBHOOK_RETRY_MAX_MS: z.coerce.number().int().positive().default(1_200_000),
  /** How long a claimed delivery is reserved for its worker; a dead worker's claims are retried after it. */
  WEBHOOK_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
  /** Whether this process runs the webhook delivery worker (embedded topology; `false` when a separate worker runs). */
  WEBHOOK_WORKER: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform(v => v === 'true' || v === '1'),
  /** How often this process runs the renewal scheduler (renewals, dunning retries, resumes); 0: never. */
  RENEWAL_INTERVAL_MS: z.coerce.number().int().min(0).default(10_000),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().positive().default(8),
  // NOTE: counts objects resolved, lists at their page size; the REST portal list (100 items with
  // product, prices and organization) costs about 4,900, so the default leaves room above it.
  GRAPHQL_MAX_COST: z.coerce.number().int().positive().default(10000),
  /**
   * Production's payment processor (the sandbox always uses the built-in test processor): `stripe`,
   * or `test` to take simulated payments on purpose. Unset: Stripe when STRIPE_SECRET_KEY is set,
   * otherwise none, and paid checkouts are refused (subgraphs/billing/payments/payment-processor.selection.ts).
   */
  PAYMENT_PROCESSOR: optionalText.pipe(z.enum(['test', 'stripe']).optional()),
  /** Stripe secret (`sk_…`) or restricted (`rk_…`) API key. */
  STRIPE_SECRET_KEY: optionalText.pipe(
    z
      .string()
      .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_live_…, sk_test_…, or rk_…)')
      .optional(),
  ),
  /**
   * Signing secret (`whsec_…`) of the Stripe webhook endpoint (`POST /v1/integrations/stripe/webhook`),
   * which settles payments and refunds Stripe answered as pending.
   */
  STRIPE_WEBHOOK_SECRET: optionalText,
  /** Where Stripe's API is (default `https://api.stripe.com`): a proxy, or stripe-mock when rehearsing. */
  STRIPE_API_URL: optionalUrl,
  /**
   * Stripe publishable key (`pk_live_…`, `pk_test_…`): the hosted checkout and the portal's card pages
   * load Stripe.js with it, so a buyer types the card into Stripe's Payment Element. Unset with
   * STRIPE_SECRET_KEY set: those pages cannot take a card (docs/payments.md).
   */
  STRIPE_PUBLISHABLE_KEY: optionalText.pipe(
    z
      .string()
      .regex(/^pk_(test|live)_\w+$/, 'must be a Stripe publishable key (pk_live_… or pk_test_…)')
      .optional(),
  ),
  /**
   * Where the card pages load Stripe.js from (default `https://js.stripe.com/v3/`, the only place Stripe
   * supports); tests point it at a fake. The pages' CSP allows this origin, and Stripe's own when it is
   * Stripe's.
   */
  STRIPE_JS_URL: optionalUrl.transform(url => url ?? 'https://js.stripe.com/v3/'),
  /**
   * Where EU VAT ids are checked (the European Commission's VIES REST API; subgraphs/billing/tax/
   * vies-verifier.ts) and how long one check may take before it is inconclusive (docs/tax.md#vies).
   */
  VIES_URL: optionalUrl.transform(url => url ?? 'https://ec.europa.eu/taxation_customs/vies/rest-api'),
  VIES_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  /**
   * GitHub's secret-scanning public keys, as `GET https://api.github.com/meta/public_keys/secret_scanning`
   * answers (`{"public_keys":[{"key_identifier","key","is_current"}]}`): inline JSON, and/or a file
   * holding it (both: the keys of both). Unset: POST /v1/integrations/github/secret-scanning answers 503.
   */
  GITHUB_SECRET_SCANNING_KEYS: optionalText,
  GITHUB_SECRET_SCANNING_KEYS_FILE: optionalText,
  /**
   * Outgoing e-mail (sign-in codes of the customer portal): `smtp://user:pass@host:587` or
   * `smtps://…:465`. Unset: messages are written to the log instead (kit/email/mailer.ts).
   */
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  /** The From of outgoing e-mail, e.g. `Acme Billing <billing@acme.test>`. */
  EMAIL_FROM: optionalText,
  /**
   * Benefit integrations (subgraphs/billing/benefits/benefit-integrations.ts). Each acts only when its
   * token is set; unset, grants of that type store `IntegrationNotConfigured`. The API URLs default to
   * the vendors' own (tests point them at a fake vendor on loopback).
   */
  DISCORD_BOT_TOKEN: optionalText,
  DISCORD_API_URL: optionalUrl,
  GITHUB_BENEFIT_TOKEN: optionalText,
  GITHUB_BENEFIT_API_URL: optionalUrl,
  SLACK_BOT_TOKEN: optionalText,
  SLACK_API_URL: optionalUrl,
});

/** Rules between variables. */
const checkedSchema = schema.superRefine((env, ctx) => {
  if (env.PAYMENT_PROCESSOR === 'stripe' && !env.STRIPE_SECRET_KEY)
    ctx.addIssue({
      code: 'custom',
      path: ['PAYMENT_PROCESSOR'],
      message: 'PAYMENT_PROCESSOR=stripe needs STRIPE_SECRET_KEY',
    });
  const mode = (key: string | undefined) => key?.match(/_(test|live)_/)?.[1];
  if (
    env.STRIPE_SECRET_KEY &&
    env.STRIPE_PUBLISHABLE_KEY &&
    mode(env.STRIPE_SECRET_KEY) !== mode(env.STRIPE_PUBLISHABLE_KEY)
  )
    ctx.addIssue({
      code: 'custom',
      path: ['STRIPE_PUBLISHABLE_KEY'],
      message: 'STRIPE_PUBLISHABLE_KEY and STRIPE_SECRET_KEY must both be live keys or both test keys',
    });
});

const resolved = checkedSchema.transform(config => ({
  ...config,
  RATE_LIMITS: config.RATE_LIMITS ?? (config.NODE_ENV === 'test' ? 'off' : 'on'),
  DATABASE_POOL_SIZE: config.DATABASE_POOL_SIZE ?? (config.NODE_ENV === 'test' ? 4 : 10),
}));

export type Config = Readonly<z.infer<typeof resolved>>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = resolved.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(i => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return Object.freeze(parsed.data);
}

export type EnvironmentName = 'production' | 'sandbox';

/** The database waits the configuration sets. */
export function databaseWaitsOf(config: Config): DatabaseWaits {
  return {
    acquireTimeoutMs: config.DATABASE_ACQUIRE_TIMEOUT_MS,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
    idleInTransactionTimeoutMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    migrationTimeoutMs: config.DATABASE_MIGRATION_TIMEOUT_MS,
  };
}

/** The public base URL of one environment: configured, or the loopback address it serves on. */
export function publicUrlOf(config: Config, environment: EnvironmentName): string {
  return environment === 'production'
    ? baseUrl(config.PUBLIC_URL, config.HOST, config.PORT)
    : baseUrl(config.SANDBOX_PUBLIC_URL, config.HOST, config.SANDBOX_PORT);
}

/**
 * The public base URL of a distributed deployment, which serves one environment (ENVIRONMENT):
 * PUBLIC_URL (SANDBOX_PUBLIC_URL first for a sandbox), else http://HOST:`port` (the REST adapter's
 * own PORT unless told otherwise).
 */
export function deploymentPublicUrl(config: Config, port = config.PORT): string {
  const configured =
    config.ENVIRONMENT === 'sandbox' ? (config.SANDBOX_PUBLIC_URL ?? config.PUBLIC_URL) : config.PUBLIC_URL;
  return baseUrl(configured, config.HOST, port);
}

function baseUrl(configured: string | undefined, host: string, port: number): string {
  return configured ? configured.replace(/\/$/, '') : `http://${host}:${port}`;
}
