import { Migrator } from '@mikro-orm/migrations';
import pg from 'pg';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { identityMigrations } from './migrations/index.js';
import { Membership } from './memberships/membership.entity.js';
import { OAuth2AuthorizationCode } from './oauth2/oauth2-authorization-code.entity.js';
import { OAuth2Client } from './oauth2/oauth2-client.entity.js';
import { OAuth2Grant } from './oauth2/oauth2-grant.entity.js';
import { OAuth2Token } from './oauth2/oauth2-token.entity.js';
import { SigningKey } from './oauth2/signing-key.entity.js';
import { Organization } from './organizations/organization.entity.js';
import { OrganizationAccessToken } from './tokens/organization-access-token.entity.js';
import { PersonalAccessToken } from './tokens/personal-access-token.entity.js';
import { UserSession } from './tokens/user-session.entity.js';
import { User } from './users/user.entity.js';

/** The identity subgraph owns the `identity` Postgres schema; nothing else reads these tables. */
export const IDENTITY_SCHEMA = 'identity';
const MIGRATION_LOCK_KEY = 7_301_001;

export const identityEntities = [
  User,
  Organization,
  Membership,
  OrganizationAccessToken,
  PersonalAccessToken,
  UserSession,
  OAuth2Client,
  OAuth2AuthorizationCode,
  OAuth2Token,
  OAuth2Grant,
  SigningKey,
];

export function identityOrmOptions(clientUrl: string, poolMax = 10): Options {
  return {
    clientUrl,
    entities: identityEntities,
    metadataProvider: ReflectMetadataProvider,
    extensions: [Migrator],
    pool: { min: 0, max: poolMax },
    driverOptions: { application_name: 'billing-identity' },
    migrations: {
      migrationsList: identityMigrations,
      tableName: 'mikro_orm_migrations',
      schema: IDENTITY_SCHEMA,
      snapshot: false,
      silent: true,
    },
    debug: false,
    allowGlobalContext: false,
  };
}

/** Connects and brings the schema up to date (idempotent; safe for several processes at once). */
export async function openIdentityOrm(clientUrl: string, poolMax = 10): Promise<MikroORM> {
  const orm = await MikroORM.init(identityOrmOptions(clientUrl, poolMax));
  await migrate(orm, clientUrl);
  return orm;
}

async function migrate(orm: MikroORM, clientUrl: string): Promise<void> {
  // NOTE: a session-level advisory lock, held on a connection of its own, serialises migrations when
  // the server, the CLI and the tests start against the same database at the same moment.
  const lock = new pg.Client({ connectionString: clientUrl });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await lock.query(`create schema if not exists ${IDENTITY_SCHEMA}`);
    await orm.migrator.up();
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.end();
  }
}
