import pg from 'pg';
import type { DatabaseWaits } from '../config.js';
import { isPooledUrl } from './direct-urls.js';

/** The server-side bounds and the configuration that asks for each (kit/database/waits.ts). */
const SERVER_BOUNDS = [
  { setting: 'statement_timeout', wait: 'statementTimeoutMs', variable: 'DATABASE_STATEMENT_TIMEOUT_MS' },
  { setting: 'lock_timeout', wait: 'lockTimeoutMs', variable: 'DATABASE_LOCK_TIMEOUT_MS' },
  {
    setting: 'idle_in_transaction_session_timeout',
    wait: 'idleInTransactionTimeoutMs',
    variable: 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS',
  },
] as const;

/**
 * What is unbounded behind a pooler, as one warning, or null (docs/pgbouncer.md#the-bounds-of-waits).
 *
 * Through PgBouncer the service cannot send its three server-side bounds at connection start; they hold only
 * if the operator set them on the database role. A role without them is no error (the service serves), but one
 * stuck statement could then hold a server connection for ever: the start says so, once, with the fix. Asked on
 * a pooled connection, so what it answers is what every request's session has. Null directly (the service sends
 * the bounds itself) and when the database cannot be asked (the start fails elsewhere, with its own reason).
 */
export async function unboundedWaitsBehindPooler(url: string, waits: DatabaseWaits): Promise<string | null> {
  if (!isPooledUrl(url)) return null;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: waits.acquireTimeoutMs });
  let settings: Map<string, number>;
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string; setting: string }>(
      'select name, setting from pg_settings where name = any($1)',
      [SERVER_BOUNDS.map(b => b.setting)],
    );
    settings = new Map(rows.map(r => [r.name, Number(r.setting)]));
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
  const missing = SERVER_BOUNDS.filter(b => waits[b.wait] > 0 && (settings.get(b.setting) ?? 0) === 0);
  if (missing.length === 0) return null;
  const role = roleOf(url);
  const fixes = missing.map(b => `alter role ${role} set ${b.setting} = '${waits[b.wait]}ms';`).join(' ');
  return (
    `the database is reached through a pooler, and its sessions have no ${missing.map(b => b.setting).join(', ')}: ` +
    `those waits are unbounded (${missing.map(b => b.variable).join(', ')} cannot be sent through PgBouncer). ` +
    `Fix: ${fixes} (docs/pgbouncer.md)`
  );
}

/** The URL's role as SQL names it: quoted unless it is a plain lower-case name. */
function roleOf(url: string): string {
  const name = decodeURIComponent(new URL(url).username) || 'current_user';
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}
