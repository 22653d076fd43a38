import type { EntityData, EntityManager, EntityName } from '@mikro-orm/postgresql';

/** What a shape needs of a MikroORM query builder. */
export interface BuiltQuery {
  getQuery(): string;
  getParams(): readonly unknown[];
}

/**
 * Hot reads whose SQL MikroORM builds once per *shape*, then runs with fresh values.
 *
 * MikroORM builds a query from scratch on every `find` (criteria nodes, aliases, column mapping), and
 * hydrates managed entities; for a one-row page that is well over half of what a list request costs
 * the process (docs/architecture.md, "Where the time goes"). Here the query builder runs once per
 * shape with `param(name)` markers in place of every value; the SQL and the marker positions are kept,
 * and each call binds its own values and maps the rows to plain, unmanaged entity data.
 *
 * The caller names the shape: its key must cover everything that changes the SQL text, and every
 * value must be a marker. A marker MikroORM did not pass through as a bound parameter (inlined into
 * the SQL, or converted by a custom type) makes the shape unusable: `compile` throws, so that is
 * found the first time the shape is built, never as a wrong query.
 */
const MARK = '\u0000param:';

/** Stands for the value named `name` while a shape is compiled. */
export const param = (name: string): string => `${MARK}${name}`;

type Binding = { name: string } | { constant: unknown };

interface Shape {
  sql: string;
  bindings: Binding[];
  names: Set<string>;
}

export class UnusableQueryShape extends Error {}

const MAX_SHAPES = 1000;

export class QueryShapes {
  /** Per MikroORM instance (its metadata), since the SQL depends on its configuration. */
  private readonly byOrm = new WeakMap<object, Map<string, Shape>>();

  /** Rows of a SELECT built by `build` (run only when the shape is new), as plain entity data. */
  async all<T extends object>(
    em: EntityManager,
    entity: EntityName<T>,
    key: string,
    build: () => BuiltQuery,
    values: Record<string, unknown>,
  ): Promise<EntityData<T>[]> {
    const shape = this.shape(em, `all:${key}`, build);
    const rows = await this.run(em, shape, values);
    const meta = em.getMetadata().find(entity)!;
    const driver = em.getDriver();
    return rows.map(row => driver.mapResult(row as EntityData<T>, meta) as EntityData<T>);
  }

  /** The first column of the first row as a number (a `count(*)` shape). */
  async number(
    em: EntityManager,
    key: string,
    build: () => BuiltQuery,
    values: Record<string, unknown>,
  ): Promise<number> {
    const shape = this.shape(em, `number:${key}`, build);
    const rows = await this.run(em, shape, values);
    const first = rows[0] as Record<string, unknown> | undefined;
    return first ? Number(Object.values(first)[0]) : 0;
  }

  private shape(em: EntityManager, key: string, build: () => BuiltQuery): Shape {
    const metadata = em.getMetadata();
    let shapes = this.byOrm.get(metadata);
    if (!shapes) {
      shapes = new Map();
      this.byOrm.set(metadata, shapes);
    }
    let shape = shapes.get(key);
    if (!shape) {
      shape = compile(build());
      if (shapes.size >= MAX_SHAPES) shapes.clear();
      shapes.set(key, shape);
    }
    return shape;
  }

  private async run(em: EntityManager, shape: Shape, values: Record<string, unknown>): Promise<unknown[]> {
    for (const name of shape.names) {
      if (!(name in values)) throw new Error(`No value for query parameter "${name}"`);
    }
    const params = shape.bindings.map(b => ('name' in b ? values[b.name] : b.constant));
    const result = await em.getConnection().execute(shape.sql, params, 'all', em.getTransactionContext());
    return result as unknown[];
  }
}

/** The SQL of `qb` with its parameters resolved to marker names (exported for tests). */
export function compile(qb: BuiltQuery): Shape {
  const sql = qb.getQuery();
  if (sql.includes(MARK)) throw new UnusableQueryShape(`A parameter marker was inlined into the SQL: ${sql}`);
  const names = new Set<string>();
  const bindings = qb.getParams().map((value): Binding => {
    if (typeof value === 'string' && value.startsWith(MARK)) {
      const name = value.slice(MARK.length);
      names.add(name);
      return { name };
    }
    if (JSON.stringify(value ?? null).includes('\\u0000param:')) {
      throw new UnusableQueryShape(`A parameter marker was converted before binding: ${JSON.stringify(value)}`);
    }
    return { constant: value };
  });
  return { sql, bindings, names };
}
