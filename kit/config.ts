import { z } from 'zod';

/**
 * The one place that reads `process.env`. Every process parses it once at start-up into a frozen,
 * typed object and passes it down; a bad value stops the process with a message naming the variable.
 */
const port = z.coerce.number().int().min(0).max(65535);
const optionalUrl = z
  .string()
  .trim()
  .transform(v => (v === '' ? undefined : v))
  .pipe(z.url().optional())
  .optional();

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('127.0.0.1'),
  PORT: port.default(8000),
  SANDBOX_PORT: port.default(8001),
  /** Public address of production (OIDC issuer, portal links); defaults to http://HOST:PORT. */
  PUBLIC_URL: optionalUrl,
  SANDBOX_PUBLIC_URL: optionalUrl,
  DATABASE_URL: optionalUrl,
  SANDBOX_DATABASE_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  /** Where the embedded PostgreSQL and generated secrets live when no DATABASE_URL is given. */
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: port.default(54329),
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
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().positive().default(8),
  // NOTE: counts objects resolved, lists at their page size; the REST portal list (100 items with
  // product, prices and organization) costs about 4,900, so the default leaves room above it.
  GRAPHQL_MAX_COST: z.coerce.number().int().positive().default(10000),
});

export type Config = Readonly<z.infer<typeof schema>>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(i => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return Object.freeze(parsed.data);
}

export type EnvironmentName = 'production' | 'sandbox';

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
