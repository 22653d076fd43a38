import type { EntityManager } from '@mikro-orm/postgresql';
import { totalFromPage } from '../../graphql/pagination.js';
import type { Principal, SubjectKind } from '../../principal.js';
import type { LazySql } from './entity-json.js';
import { type Read, type ReadRow, runRead, withReads } from './execute.js';
import { type KeyedShape, keyedStatements, numbered, type PageResult, readKeyedPages } from './keyed-pages.js';
import { narrowScope, type TenantScope, tenantScope } from '../tenant-scope.js';

/**
 * One filter of a list: a SQL condition over the model's alias with `?` where its values go, and the
 * values (default: the filter's value itself, bound as one parameter — lists bind as one array, so
 * `x = any(?)` has the same text whatever the list's length). When `where` is a function, its text is
 * part of the statement's shape (e.g. `metadata` with two keys differs from one key).
 */
export interface FilterDefinition<V> {
  where: string | ((value: V, scope: TenantScope) => string);
  values?: (value: V, scope: TenantScope) => unknown[];
}

export interface SortKeyDefinition {
  /** The SQL expression sorted on. */
  sql: string;
  /** A join the expression needs (added to the page statement only when this key is used). */
  join?: string;
  /** `nulls last` / `nulls first` when the column is nullable and Polar orders nulls a given way. */
  nulls?: 'first' | 'last';
}

export interface SortCriterion {
  key: string;
  direction: 'asc' | 'desc';
}

/** A statement that answers an exact total for some filters (e.g. summed from maintained counters). */
export interface CountShortcut<F> {
  /** Whether these filters (within this scope) can be counted this way. */
  applies(filters: F, scope: TenantScope): boolean;
  /** The SQL (`?` for values) returning one row with a column `n`, and its values. */
  sql(scope: TenantScope, filters: F): { where: string; values: unknown[]; from: string };
}

/**
 * The tenant conditions of a statement: SQL with `?` for its values, and `key`, the part of the
 * statement's shape they decide (the same key must always give the same `where` text).
 */
export interface AccessRule {
  key: string;
  where: readonly string[];
  values: readonly unknown[];
}

/**
 * A resource as the read path serves it: its table, its tenant columns, the JSON of one row, the
 * nested objects joined in, its filters and sort keys. A new resource's list and get are this object.
 */
export interface ReadModelDefinition<F extends object> {
  /** A name for logs and the statement cache. */
  name: string;
  /** `schema.table alias`, e.g. `billing.subscriptions s`. */
  from: string;
  alias: string;
  /** Who may read it (see tenant-scope.ts). */
  readers: readonly SubjectKind[];
  /** The tenant columns: the organization, and for resources a customer reads, the customer. */
  tenant: { organization: string; customer?: string };
  /** Conditions that always hold (e.g. `c.deleted_at is null`), unless a read asks for `includeHidden`. */
  visible?: string;
  /**
   * The row as served: SQL expressions by output column. The first is usually the row's own JSON
   * (see entity-json.ts); the others are nested objects (a correlated subquery returning JSON, for
   * one object or a `json_agg` for many), evaluated only for the rows of the page.
   */
  select: Record<string, string | LazySql>;
  filters: { [K in keyof F]-?: FilterDefinition<NonNullable<F[K]>> };
  sorts: Record<string, SortKeyDefinition>;
  /** The unique column breaking ties (in the first key's direction, or always ascending). */
  tieBreaker: string;
  tieBreakerAscending?: boolean;
  count?: CountShortcut<F>;
  /**
   * A tenant rule other than `tenantScope`'s, for the subgraph that owns the organizations (identity:
   * a user reads the organizations it is a member of, by the memberships table, not by the ids its
   * principal carries). `null`: the principal reads nothing. Without it, `tenant` and `readers` apply.
   */
  access?: (principal: Principal) => AccessRule | null;
}

interface PageShape {
  sql: string;
  countSql: string;
  /** The conditions and the ordering, for the statements built on the same shape (`pagesPerKey`). */
  where: string;
  orderBy: string;
  joins: string;
}

const MAX_SHAPES = 500;

/**
 * The shared read path (docs/data-access.md): from a route's filters, sorting and paging it
 * builds ONE statement returning the page's rows ready to serve (nested objects included), plus the
 * exact count when the page cannot tell it. Statement texts are built once per *shape* (which filters
 * are present, the sorting, the scope's kind) and cached; a request only binds values. Tenant scope is
 * applied here, from the principal, through `tenantScope` — never by the caller.
 */
export class ReadModel<F extends object> {
  private readonly shapes = new Map<string, PageShape>();
  private readonly keyedShapes = new Map<string, KeyedShape>();
  private selectSql: string | undefined;
  private readonly byIdSql = new Map<string, string>();

  constructor(readonly definition: ReadModelDefinition<F>) {}

  /** The select list, built on first use (entity JSON needs the ORM's metadata). */
  private selectList(em: EntityManager): string {
    this.selectSql ??= Object.entries(this.definition.select)
      .map(([column, sql]) => `${typeof sql === 'function' ? sql(em) : sql} as "${column}"`)
      .join(', ');
    return this.selectSql;
  }

  /** One page and its exact total (the count statement runs only when the page cannot tell it). */
  async page(
    em: EntityManager,
    principal: Principal,
    filters: F,
    order: readonly SortCriterion[],
    window: { limit: number; offset: number },
    options: { organizationIds?: readonly string[] | null } = {},
  ): Promise<PageResult> {
    const scoped = this.scoped(principal, options.organizationIds);
    if (!scoped) return { rows: [], total: 0 };
    const { scope, rule } = scoped;
    const present = (Object.keys(filters) as (keyof F & string)[]).filter(k => filters[k] !== undefined);
    const shape = this.pageShape(em, rule, scope, filters, present, order);
    const values = this.values(rule, scope, filters, present);
    // The page and its count on one connection: see `withReads`.
    return withReads(em, async read => {
      const rows = await read(shape.sql, [...values, window.limit, window.offset]);
      let total = totalFromPage(rows.length, window);
      if (total === undefined) total = await this.count(read, scope, filters, shape, values);
      return { rows, total };
    });
  }

  /**
   * One page per key of `column` (e.g. the orders of each subscription of a page of subscriptions),
   * with each page's exact total, in at most two statements whatever the number of keys (keyed-pages.ts).
   * `column` is a column of the model's alias holding a uuid.
   */
  async pagesPerKey(
    em: EntityManager,
    principal: Principal,
    column: string,
    keys: readonly string[],
    filters: F,
    order: readonly SortCriterion[],
    window: { limit: number; offset: number },
    options: { organizationIds?: readonly string[] | null } = {},
  ): Promise<Map<string, PageResult>> {
    const scoped = this.scoped(principal, options.organizationIds);
    if (!scoped || keys.length === 0) return new Map(keys.map(key => [key, { rows: [], total: 0 }]));
    const { scope, rule } = scoped;
    const present = (Object.keys(filters) as (keyof F & string)[]).filter(k => filters[k] !== undefined);
    const page = this.pageShape(em, rule, scope, filters, present, order);
    let shape = this.keyedShapes.get(`${column}|${page.sql}`);
    if (!shape) {
      shape = keyedStatements(this.definition, this.selectList(em), page, column);
      if (this.keyedShapes.size >= MAX_SHAPES) this.keyedShapes.clear();
      this.keyedShapes.set(`${column}|${page.sql}`, shape);
    }
    return readKeyedPages(em, shape, keys, this.values(rule, scope, filters, present), window);
  }

  /**
   * The statements `page` would run for this scope (page, then count), with their values: the bench's
   * one-hop baseline runs exactly these.
   */
  statements(
    em: EntityManager,
    scope: TenantScope,
    filters: F,
    order: readonly SortCriterion[],
    window: { limit: number; offset: number },
  ): { page: [string, unknown[]]; count: [string, unknown[]] } {
    const present = (Object.keys(filters) as (keyof F & string)[]).filter(k => filters[k] !== undefined);
    const rule = this.scopeRule(scope);
    const shape = this.pageShape(em, rule, scope, filters, present, order);
    const values = this.values(rule, scope, filters, present);
    const shortcut = this.definition.count;
    let count: [string, unknown[]] = [shape.countSql, values];
    if (shortcut?.applies(filters, scope)) {
      const { where, values: shortcutValues, from } = shortcut.sql(scope, filters);
      count = [numbered(`select coalesce(sum(n), 0) as n from ${from} where ${where}`), shortcutValues];
    }
    return { page: [shape.sql, [...values, window.limit, window.offset]], count };
  }

  /** The readable rows with these ids (any order; absent or foreign ids simply missing). */
  async byIds(
    em: EntityManager,
    principal: Principal,
    ids: readonly string[],
    options: { includeHidden?: boolean } = {},
  ): Promise<ReadRow[]> {
    const scoped = this.scoped(principal, null);
    return scoped ? this.byIdsWith(em, scoped.rule, ids, options) : [];
  }

  /**
   * `byIds` within an explicit scope, for the subgraph's own work that has no caller (the payload of
   * an event is read within the changed row's own organization).
   */
  async byIdsIn(
    em: EntityManager,
    scope: TenantScope | null,
    ids: readonly string[],
    options: { includeHidden?: boolean } = {},
  ): Promise<ReadRow[]> {
    return scope ? this.byIdsWith(em, this.scopeRule(scope), ids, options) : [];
  }

  private async byIdsWith(
    em: EntityManager,
    rule: AccessRule,
    ids: readonly string[],
    options: { includeHidden?: boolean },
  ): Promise<ReadRow[]> {
    if (!ids.length) return [];
    const key = `${rule.key}:${options.includeHidden ? 'all' : 'visible'}`;
    let sql = this.byIdSql.get(key);
    if (!sql) {
      const d = this.definition;
      const where = [...rule.where, `${d.alias}.${d.tieBreaker} = any(?)`];
      if (d.visible && !options.includeHidden) where.push(d.visible);
      sql = numbered(`select ${this.selectList(em)} from ${d.from} where ${where.join(' and ')}`);
      if (this.byIdSql.size >= MAX_SHAPES) this.byIdSql.clear();
      this.byIdSql.set(key, sql);
    }
    return runRead(em, sql, [...rule.values, [...ids]]);
  }

  /**
   * Who reads what: the definition's own `access` rule, else `tenantScope` (narrowed to the requested
   * organizations). `scope` is what filters and the count shortcut see.
   */
  private scoped(
    principal: Principal,
    organizationIds: readonly string[] | null | undefined,
  ): { scope: TenantScope; rule: AccessRule } | null {
    const { access, readers } = this.definition;
    if (access) {
      const rule = access(principal);
      return rule && { scope: { organizationIds: principal.organizationIds, customerId: null }, rule };
    }
    const scope = narrowScope(tenantScope(principal, readers), organizationIds);
    return scope && { scope, rule: this.scopeRule(scope) };
  }

  private scopeRule(scope: TenantScope): AccessRule {
    return { key: this.scopeKey(scope), where: this.tenantConditions(scope), values: this.tenantValues(scope) };
  }

  async byId(
    em: EntityManager,
    principal: Principal,
    id: string,
    options: { includeHidden?: boolean } = {},
  ): Promise<ReadRow | null> {
    return (await this.byIds(em, principal, [id], options))[0] ?? null;
  }

  /**
   * NOTE: one organization is `= ?`, not `= any(?)`: with an array PostgreSQL cannot walk the
   * (organization_id, sort key) index in order and sorts every row of the organization instead, which
   * at a million rows is seconds instead of a fraction of a millisecond.
   */
  private tenantConditions(scope: TenantScope): string[] {
    const { tenant } = this.definition;
    const out = [scope.organizationIds.length === 1 ? `${tenant.organization} = ?` : `${tenant.organization} = any(?)`];
    if (scope.customerId) out.push(tenant.customer ? `${tenant.customer} = ?` : 'false');
    return out;
  }

  /** The part of a statement's shape that the scope decides. */
  private scopeKey(scope: TenantScope): string {
    return `${scope.customerId ? 'c' : 'o'}${scope.organizationIds.length === 1 ? '1' : 'n'}`;
  }

  private tenantValues(scope: TenantScope): unknown[] {
    const out: unknown[] = [scope.organizationIds.length === 1 ? scope.organizationIds[0] : scope.organizationIds];
    if (scope.customerId) out.push(scope.customerId);
    return out;
  }

  private pageShape(
    em: EntityManager,
    rule: AccessRule,
    scope: TenantScope,
    filters: F,
    present: readonly (keyof F & string)[],
    order: readonly SortCriterion[],
  ): PageShape {
    const d = this.definition;
    let key = `${rule.key}|${order.map(o => `${o.key}:${o.direction}`).join(',')}|`;
    for (const name of present) {
      const where = d.filters[name].where;
      key += typeof where === 'function' ? `${name}=${where(filters[name] as never, scope)};` : `${name};`;
    }
    let shape = this.shapes.get(key);
    if (shape) return shape;
    const conditions = [...rule.where];
    if (d.visible) conditions.push(d.visible);
    for (const name of present) {
      const where = d.filters[name].where;
      conditions.push(typeof where === 'function' ? where(filters[name] as never, scope) : where);
    }
    const joins = [...new Set(order.map(o => d.sorts[o.key]?.join).filter((j): j is string => !!j))];
    const orderBy = [
      ...order.map(o => {
        const sort = d.sorts[o.key];
        if (!sort) throw new Error(`${d.name}: unknown sort key ${o.key}`);
        return `${sort.sql} ${o.direction}${sort.nulls ? ` nulls ${sort.nulls}` : ''}`;
      }),
      `${d.alias}.${d.tieBreaker} ${d.tieBreakerAscending ? 'asc' : (order[0]?.direction ?? 'asc')}`,
    ].join(', ');
    const where = conditions.join(' and ');
    // The page is chosen first (index order, limit, offset), then its rows are shaped: the nested
    // subqueries run for the page's rows only, never for the rows an offset skips. PostgreSQL keeps
    // the subquery's order through this plain projection.
    const inner = `select ${d.alias}.* from ${d.from} ${joins.join(' ')} where ${where} order by ${orderBy} limit ? offset ?`;
    shape = {
      sql: numbered(`select ${this.selectList(em)} from (${inner}) ${d.alias}`),
      countSql: numbered(`select count(*) as n from ${d.from} where ${where}`),
      where,
      orderBy,
      joins: joins.join(' '),
    };
    if (this.shapes.size >= MAX_SHAPES) this.shapes.clear();
    this.shapes.set(key, shape);
    return shape;
  }

  private values(rule: AccessRule, scope: TenantScope, filters: F, present: readonly (keyof F & string)[]): unknown[] {
    const values = [...rule.values];
    for (const name of present) {
      const filter = this.definition.filters[name];
      const value = filters[name] as never;
      if (filter.values) values.push(...filter.values(value, scope));
      else values.push(value);
    }
    return values;
  }

  private async count(
    read: Read,
    scope: TenantScope,
    filters: F,
    shape: PageShape,
    values: unknown[],
  ): Promise<number> {
    const shortcut = this.definition.count;
    if (shortcut?.applies(filters, scope)) {
      const { where, values: shortcutValues, from } = shortcut.sql(scope, filters);
      const rows = await read(numbered(`select coalesce(sum(n), 0) as n from ${from} where ${where}`), shortcutValues);
      return Number(rows[0]?.n ?? 0);
    }
    const rows = await read(shape.countSql, values);
    return Number(rows[0]?.n ?? 0);
  }
}

export { numbered, type PageResult };
