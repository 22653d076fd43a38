import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import pg from 'pg';
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
   * (at-least-once, as always). It saves a WAL flush per claim and per recorded batch.
   */
  asynchronousCommit?: boolean;
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
      ...(tuning.asynchronousCommit ? { options: '-c synchronous_commit=off' } : {}),
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
  const lock = new pg.Client({ connectionString: clientUrl });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await lock.query(`create schema if not exists ${WEBHOOKS_SCHEMA}`);
    await orm.migrator.up();
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.end();
  }
  return orm;
}
