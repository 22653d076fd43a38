import type { Migration } from '@mikro-orm/migrations';

/**
 * Reads a migration's SQL and names every statement that would hold a lock on an existing table for
 * as long as the table is large (docs/operations.md#migrations-that-keep-serving). Tables the same
 * migration creates are exempt: nobody reads them yet.
 */

export type LockRule =
  | 'index-not-concurrent'
  | 'concurrent-in-transaction'
  | 'non-transactional-mixed'
  | 'table-rewrite'
  | 'set-not-null'
  | 'constraint-validated-at-once'
  | 'unique-constraint-builds-index';

export interface LockFinding {
  migration: string;
  rule: LockRule;
  /** `schema.table` the statement locks. */
  table: string;
  statement: string;
}

export interface MigrationEntry {
  name: string;
  class: new (...args: any[]) => Migration;
}

/** Splits SQL text into statements at top-level semicolons (outside quotes, identifiers and $$ bodies). */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0];
      if (!tag) i += 1;
      else {
        const end = sql.indexOf(tag, i + tag.length);
        i = end < 0 ? sql.length : end + tag.length;
      }
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === ';') {
      statements.push(sql.slice(start, i));
      start = i + 1;
      i += 1;
    } else i += 1;
  }
  statements.push(sql.slice(start));
  return statements.map(s => s.replace(/^\s*(--[^\n]*\n\s*)*/, '').trim()).filter(s => s.length > 0);
}

/** `"billing"."orders"`, `billing.orders`, `orders` → `billing.orders` (unqualified: the subgraph's schema). */
function tableName(raw: string, schema: string): string {
  const parts = raw.split('.').map(part => part.replace(/"/g, '').toLowerCase());
  return parts.length > 1 ? `${parts[0]}.${parts[1]}` : `${schema}.${parts[0]}`;
}

const NAME = String.raw`(?:"[^"]+"|[\w]+)(?:\s*\.\s*(?:"[^"]+"|[\w]+))?`;
const CREATE_TABLE = new RegExp(String.raw`^create\s+(?:unlogged\s+)?table\s+(?:if\s+not\s+exists\s+)?(${NAME})`, 'i');
const CREATE_INDEX = new RegExp(
  String.raw`^create\s+(?:unique\s+)?index\s+(concurrently\s+)?(?:if\s+not\s+exists\s+)?(?:${NAME}\s+)?on\s+(?:only\s+)?(${NAME})`,
  'i',
);
const ALTER_TABLE = new RegExp(String.raw`^alter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?(${NAME})\s+([\s\S]*)$`, 'i');
const CONCURRENT = /^(create\s+(unique\s+)?index|drop\s+index|reindex\s+\w+)\s+concurrently\b/i;

/**
 * Functions whose value changes per row: a column added with one as its default is written into every
 * existing row (a rewrite under an ACCESS EXCLUSIVE lock); a constant or a stable function (`now()`) is
 * stored once in the catalogue instead.
 */
const VOLATILE_DEFAULT =
  /\bdefault\s+(?:gen_random_uuid|uuid_generate_v[14]|random|clock_timestamp|nextval|timeofday)\s*\(/i;

/** The clauses of `alter table … a, b, c` (commas inside parentheses belong to their clause). */
function clauses(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i];
    if (c === "'") i = Math.max(i, body.indexOf("'", i + 1));
    else if (c === '(') depth += 1;
    else if (c === ')') depth -= 1;
    else if (c === ',' && depth === 0) {
      out.push(body.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(body.slice(start).trim());
  return out;
}

/** What one `alter table` clause does to an existing table that takes a long lock, or null. */
function alterClauseRule(clause: string): LockRule | null {
  const text = clause.replace(/\s+/g, ' ').toLowerCase();
  if (
    text.startsWith('add column') ||
    (text.startsWith('add ') && !/^add (constraint|foreign|check|unique|primary)/.test(text))
  ) {
    if (
      VOLATILE_DEFAULT.test(text) ||
      /\b(big|small)?serial\b/.test(text) ||
      /generated (always|by default) as identity/.test(text)
    )
      return 'table-rewrite';
    if (/generated always as \(.*\) stored/.test(text)) return 'table-rewrite';
    if (/\breferences\b/.test(text) || /\bcheck\s*\(/.test(text)) return 'constraint-validated-at-once';
    if (/\b(unique|primary key)\b/.test(text)) return 'unique-constraint-builds-index';
    return null;
  }
  if (/^add (constraint \S+ )?(foreign key|check)\b/.test(text))
    return /\bnot valid\b/.test(text) ? null : 'constraint-validated-at-once';
  if (/^add (constraint \S+ )?(unique|primary key)\b/.test(text))
    return /\busing index\b/.test(text) ? null : 'unique-constraint-builds-index';
  if (/^alter (column )?\S+ (set data )?type\b/.test(text)) return 'table-rewrite';
  if (/^alter (column )?\S+ set not null\b/.test(text)) return 'set-not-null';
  if (/^set (logged|unlogged)\b/.test(text)) return 'table-rewrite';
  return null;
}

/** Every finding in one migration's statements. */
export function findLocks(
  migration: string,
  statements: string[],
  transactional: boolean,
  schema: string,
): LockFinding[] {
  const created = new Set<string>();
  const findings: LockFinding[] = [];
  const add = (rule: LockRule, table: string, statement: string) =>
    findings.push({ migration, rule, table, statement: statement.replace(/\s+/g, ' ').slice(0, 160) });
  for (const statement of statements) {
    const table = CREATE_TABLE.exec(statement);
    if (table) {
      created.add(tableName(table[1], schema));
      continue;
    }
    const index = CREATE_INDEX.exec(statement);
    if (index) {
      const target = tableName(index[2], schema);
      if (index[1] && transactional) add('concurrent-in-transaction', target, statement);
      // `ON ONLY` a partitioned table builds nothing (an invalid parent index, made valid as each partition's
      // index, built concurrently, is attached), so it holds no lock while anything is built.
      const onlyParent = /\son\s+only\s/i.test(statement);
      if (!index[1] && !onlyParent && !created.has(target)) add('index-not-concurrent', target, statement);
      continue;
    }
    const alter = ALTER_TABLE.exec(statement);
    if (alter) {
      const target = tableName(alter[1], schema);
      if (created.has(target)) continue;
      for (const clause of clauses(alter[2])) {
        const rule = alterClauseRule(clause);
        if (rule) add(rule, target, statement);
      }
      continue;
    }
    if (/^(vacuum\s+full|cluster)\b/i.test(statement))
      add('table-rewrite', statement.split(/\s+/).pop() ?? '', statement);
  }
  // `CONCURRENTLY` cannot run inside a transaction, and a migration outside one should do nothing else:
  // a failure half-way would leave the rest of its changes applied without the migration being logged.
  if (!transactional)
    for (const statement of statements) if (!CONCURRENT.test(statement)) add('non-transactional-mixed', '', statement);
  return findings;
}

/** The SQL a migration class writes in `up()`, and whether it runs in a transaction. */
export async function migrationSql(entry: MigrationEntry): Promise<{ statements: string[]; transactional: boolean }> {
  // `up()` only collects `addSql` text: no driver, no configuration and no database are touched.
  const migration = new entry.class(undefined, undefined);
  await migration.up();
  const statements = migration.getQueries().flatMap(query => (typeof query === 'string' ? splitStatements(query) : []));
  return { statements, transactional: migration.isTransactional() };
}
