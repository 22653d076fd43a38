import { Migrator } from '@mikro-orm/migrations';
import { DEFAULT_DATABASE_WAITS, type DatabaseWaits } from '../../kit/config.js';
import { migrateSchema } from '../../kit/database/migrate.js';
import { forgetEndedSessions } from '../../kit/database/ended-sessions.js';
import { pooledConnectionSettings } from '../../kit/database/waits.js';
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

export function identityOrmOptions(
  clientUrl: string,
  poolMax = 10,
  waits: DatabaseWaits = DEFAULT_DATABASE_WAITS,
): Options {
  return {
    clientUrl,
    entities: identityEntities,
    metadataProvider: ReflectMetadataProvider,
    extensions: [Migrator],
    pool: { min: 0, max: poolMax },
    // Every wait of a pooled connection is bounded (kit/database/waits.ts).
    driverOptions: {
      application_name: 'billing-identity',
      ...pooledConnectionSettings(waits, clientUrl),
      onPoolCreated: forgetEndedSessions,
    },
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
export async function openIdentityOrm(
  clientUrl: string,
  poolMax = 10,
  waits: DatabaseWaits = DEFAULT_DATABASE_WAITS,
): Promise<MikroORM> {
  const orm = await MikroORM.init(identityOrmOptions(clientUrl, poolMax, waits));
  try {
    await migrateSchema(orm, clientUrl, IDENTITY_SCHEMA, MIGRATION_LOCK_KEY, waits);
  } catch (error) {
    await orm.close();
    throw error;
  }
  return orm;
}
