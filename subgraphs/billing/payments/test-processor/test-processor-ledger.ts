import { MikroORM } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { DEFAULT_DATABASE_WAITS, type DatabaseWaits } from '../../../../kit/config.js';
import { forgetEndedSessions } from '../../../../kit/database/ended-sessions.js';
import { pooledConnectionSettings } from '../../../../kit/database/waits.js';
import { testProcessorEntities } from './test-processor.entities.js';

/** Connections of the test processor's own pool: it is a card network in miniature, not a tenant. */
const LEDGER_POOL_SIZE = 2;

/**
 * The test processor's ledger gets its own small pool, as a real processor is a system of its own:
 * the callers charge while they hold a connection of the billing pool (a confirm, a refund under the
 * order's row lock, a plan change inside its transaction). If the processor drew from that same
 * pool, as many concurrent charges as the pool has connections would each wait for a connection that
 * only they could give back (a deadlock the checkout bench hit). Its own pool only ever waits on
 * itself. Its tables belong to the billing schema, migrated by the billing ORM.
 */
export async function openTestProcessorLedger(
  clientUrl: string,
  waits: DatabaseWaits = DEFAULT_DATABASE_WAITS,
): Promise<MikroORM> {
  return MikroORM.init({
    clientUrl,
    entities: testProcessorEntities,
    metadataProvider: ReflectMetadataProvider,
    pool: { min: 0, max: LEDGER_POOL_SIZE },
    driverOptions: {
      application_name: 'billing-test-processor',
      ...pooledConnectionSettings(waits, clientUrl),
      onPoolCreated: forgetEndedSessions,
    },
    debug: false,
    allowGlobalContext: false,
  });
}
