/**
 * Which database URLs reach PostgreSQL through a connection pooler (PgBouncer in transaction pooling
 * mode), and the direct URL of each (docs/pgbouncer.md). A pooled connection is a different server
 * session from one transaction to the next, so whatever lives in a session goes to the direct URL:
 * LISTEN (kit/database/channel-listener.ts), the migrations' session-level advisory lock
 * (kit/database/migrate.ts) and CREATE DATABASE. On the pooled URL nothing is left in a session: no
 * named prepared statements (kit/database/read/execute.ts), no settings sent at connection start
 * (kit/database/waits.ts), locks only transaction-scoped.
 *
 * Process-wide, keyed by the pooled URL: the URLs are handed down everywhere already, and one
 * declaration where configuration is read (`declareDirectDatabases`) reaches every pool and listener.
 */
const directUrls = new Map<string, string>();

/** `pooledUrl` goes through a pooler; `directUrl` reaches the same database without one. */
export function declareDirectUrl(pooledUrl: string, directUrl: string): void {
  if (pooledUrl === directUrl) directUrls.delete(pooledUrl);
  else directUrls.set(pooledUrl, directUrl);
}

/** The URL without a pooler for `url`: `url` itself unless it was declared pooled. */
export function directUrlOf(url: string): string {
  return directUrls.get(url) ?? url;
}

/** Whether `url` goes through a pooler (a direct URL was declared for it). */
export function isPooledUrl(url: string | undefined): boolean {
  return url !== undefined && directUrls.has(url);
}

/**
 * Declares the process's DATABASE_URL pooled when DATABASE_DIRECT_URL differs from it (the distributed
 * processes: one environment each, on DATABASE_URL).
 */
export function declareDirectDatabase(config: { DATABASE_URL?: string; DATABASE_DIRECT_URL?: string }): void {
  if (config.DATABASE_URL && config.DATABASE_DIRECT_URL)
    declareDirectUrl(config.DATABASE_URL, config.DATABASE_DIRECT_URL);
}

/**
 * `name` for a named prepared statement on `clientUrl`'s connections, or undefined (an unnamed one, parsed
 * each time) through a pooler in transaction mode: a statement prepared on one server connection would be
 * executed on another, which does not know it ("prepared statement … does not exist"), or prepared again
 * where it already is ("already exists").
 */
export function statementNameOn(clientUrl: string | undefined, name: string): string | undefined {
  return isPooledUrl(clientUrl) ? undefined : name;
}
