import { Migration } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { webhooksMigrations } from '../../subgraphs/webhooks/migrations/index.js';
import { WEBHOOKS_SCHEMA, webhooksOrmOptions } from '../../subgraphs/webhooks/orm.js';
import { createTestDatabase } from '../../test/support/database.js';
import { DEFAULT_DATABASE_WAITS } from '../config.js';
import { migrateSchema } from '../database/migrate.js';

/**
 * A migration with `isTransactional()` false (docs/operations.md#migrations-that-keep-serving) runs
 * outside the transaction of the migrations around it: `CREATE INDEX CONCURRENTLY` succeeds, in order,
 * and it is logged once, so a second start finds nothing pending.
 */
class AddColumn extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhooks"."endpoints" add column if not exists "lint_probe" text null;`);
  }
}
class IndexConcurrently extends Migration {
  override isTransactional(): boolean {
    return false;
  }
  override async up(): Promise<void> {
    this.addSql(`drop index concurrently if exists "webhooks"."endpoints_lint_probe_index";`);
    this.addSql(
      `create index concurrently if not exists "endpoints_lint_probe_index" on "webhooks"."endpoints" ("lint_probe");`,
    );
  }
}
class UseIt extends Migration {
  override async up(): Promise<void> {
    this.addSql(`comment on index "webhooks"."endpoints_lint_probe_index" is 'built outside a transaction';`);
  }
}

const LIST = [
  ...webhooksMigrations,
  { name: 'Migration20991231000000_add_column', class: AddColumn },
  { name: 'Migration20991231000001_index_concurrently', class: IndexConcurrently },
  { name: 'Migration20991231000002_use_it', class: UseIt },
];

let database: { url: string; drop: () => Promise<void> };
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase('migrate_outside_tx');
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

async function migrate(): Promise<string[]> {
  const base = webhooksOrmOptions(database.url, 2);
  const orm = await MikroORM.init({ ...base, migrations: { ...base.migrations, migrationsList: LIST } });
  try {
    const pending = (await orm.migrator.getPending()).map(m => m.name);
    await migrateSchema(orm, database.url, WEBHOOKS_SCHEMA, 99_000_001, DEFAULT_DATABASE_WAITS);
    return pending;
  } finally {
    await orm.close();
  }
}

it('runs a non-transactional migration between transactional ones, builds its index valid, and logs it once', async () => {
  expect((await migrate()).slice(-3)).toEqual([
    'Migration20991231000000_add_column',
    'Migration20991231000001_index_concurrently',
    'Migration20991231000002_use_it',
  ]);
  const index = await client.query(
    `select i.indisvalid, obj_description(i.indexrelid, 'pg_class') as comment from pg_index i
      where i.indexrelid = '"webhooks"."endpoints_lint_probe_index"'::regclass`,
  );
  expect(index.rows).toEqual([{ indisvalid: true, comment: 'built outside a transaction' }]);
  const logged = await client.query(
    `select name from "webhooks"."mikro_orm_migrations" where name like 'Migration2099%' order by id`,
  );
  expect(logged.rows.map(r => r.name)).toEqual([
    'Migration20991231000000_add_column',
    'Migration20991231000001_index_concurrently',
    'Migration20991231000002_use_it',
  ]);
  expect(await migrate()).toEqual([]);
});
