import { createRequire } from 'node:module';
import pg from 'pg';
import { statementText } from './statement-text.js';
import { childSpan } from './tracing.js';

/**
 * A span per PostgreSQL statement run under a traced request (docs/observability.md#traces). Every pool
 * of the service (MikroORM's, the read path's, the test processor's ledger) runs its statements through
 * `pg.Client#query`, so wrapping that one method covers them all; it is wrapped only when tracing is on.
 * MikroORM may resolve a `pg` of its own (a nested copy): its `Client` is wrapped too.
 * A statement outside any span (a background loop's) starts no trace of its own. Statements carry their
 * text with every literal replaced (statement-text.ts), never their values.
 */
let wrapped = false;

export function traceStatements(): void {
  if (wrapped) return;
  wrapped = true;
  const require = createRequire(import.meta.url);
  const ormPg = createRequire(require.resolve('@mikro-orm/postgresql'))('pg') as typeof pg;
  for (const Client of new Set([pg.Client, ormPg.Client])) wrapQuery(Client);
}

function wrapQuery(Client: typeof pg.Client): void {
  const original = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function tracedQuery(this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; submit?: unknown } | undefined;
    // A Submittable (a cursor, a stream) reports through its own events: left as it is.
    if (first && typeof first === 'object' && typeof first.submit === 'function') return original.apply(this, args);
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    const span = childSpan('pg.query', {
      'db.system.name': 'postgresql',
      'db.query.text': statementText(text),
    });
    if (!span) return original.apply(this, args);
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (error: unknown, result: unknown) => void;
      args[last] = (error: unknown, result: unknown) => {
        if (error) span.fail(error);
        span.end();
        callback(error, result);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args) as Promise<unknown>;
    result.then(
      () => span.end(),
      error => {
        span.fail(error);
        span.end();
      },
    );
    return result;
  } as typeof Client.prototype.query;
}
