import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { DEFAULT_DATABASE_WAITS, type DatabaseWaits } from '../../kit/config.js';
import { migrateSchema } from '../../kit/database/migrate.js';
import { isPooledUrl } from '../../kit/database/direct-urls.js';
import { forgetEndedSessions } from '../../kit/database/ended-sessions.js';
import { pooledConnectionSettings } from '../../kit/database/waits.js';
import { WebhookEndpoint } from './endpoints/webhook-endpoint.entity.js';
import { webhooksMigrations } from './migrations/index.js';

/** The webhooks subgraph owns the `webhooks` Postgres schema; nothing else reads these tables. */
export const WEBHOOKS_SCHEMA = 'webhooks';
const MIGRATION_LOCK_KEY = 7_301_003;

// Events, messages and deliveries are read and written with SQL (ingestion, the worker's claim, the log).
export const webhooksEntities = [WebhookEndpoint];

export interface WebhooksOrmTuning {
  /**
   * `synchronous_commit = off` for this pool's sessions: a commit returns before its WAL is flushed, so
   * a PostgreSQL crash may forget the last few hundred milliseconds of commits. Used only by the
   * delivery worker, whose every write is safe to lose: a forgotten claim is claimed again, a forgotten
   * attempt record leaves the message leased, so it is sent again with the same webhook-id
   * (at-least-once, as always). It saves a WAL flush per claim and per recorded batch. Not through a
   * pooler (kit/database/direct-urls.ts), which refuses settings at connection start: commits are then
   * synchronous, which costs time, not correctness.
   */
  asynchronousCommit?: boolean;
  /** The bounds of every wait of a pooled connection (kit/database/waits.ts); the defaults when absent. */
  waits?: DatabaseWaits;
}

export function webhooksOrmOptions(clientUrl: string, poolMax = 10, tuning: WebhooksOrmTuning = {}): Options {
  return {
    clientUrl,
    entities: webhooksEntities,
    metadataProvider: ReflectMetadataProvider,
    extensions: [Migrator],
    pool: { min: 0, max: poolMax },
    driverOptions: {
      application_name: tuning.asynchronousCommit ? 'billing-webhooks-worker' : 'billing-webhooks',
      ...pooledConnectionSettings(tuning.waits ?? DEFAULT_DATABASE_WAITS, clientUrl),
      onPoolCreated: forgetEndedSessions,
      ...(tuning.asynchronousCommit && !isPooledUrl(clientUrl) ? { options: '-c synchronous_commit=off' } : {}),
    },
    migrations: {
      migrationsList: webhooksMigrations,
      tableName: 'mikro_orm_migrations',
      schema: WEBHOOKS_SCHEMA,
      snapshot: false,
      silent: true,
    },
    debug: false,
    allowGlobalContext: false,
  };
}

/** Connects and brings the schema up to date (idempotent; advisory-locked against concurrent starts). */
export async function openWebhooksOrm(
  clientUrl: string,
  poolMax = 10,
  tuning: WebhooksOrmTuning = {},
): Promise<MikroORM> {
  const orm = await MikroORM.init(webhooksOrmOptions(clientUrl, poolMax, tuning));
  try {
    await migrateSchema(orm, clientUrl, WEBHOOKS_SCHEMA, MIGRATION_LOCK_KEY, tuning.waits ?? DEFAULT_DATABASE_WAITS);
  } catch (error) {
    await orm.close();
    throw error;
  }
  return orm;
}
