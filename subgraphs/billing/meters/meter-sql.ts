/**
 * A meter's filter and aggregation as SQL over the usage events table (docs/meters.md#the-compiled-sql). Pure:
 * no database, no ORM. Every statement that counts usage (a meter's quantities, the events list's `filter` and
 * `meter_id`, and billing) builds its WHERE and its aggregate here, so they cannot disagree.
 *
 * SQL uses `?` for values, in the order of `values`. Property names never reach the text: a metadata path is
 * bound as a `text[]` value (`metadata #> ?`), so a filter cannot inject SQL.
 */

export const FILTER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'not_like'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
export const FILTER_CONJUNCTIONS = ['and', 'or'] as const;
export type FilterConjunction = (typeof FILTER_CONJUNCTIONS)[number];
export const AGGREGATION_FUNCTIONS = ['count', 'sum', 'max', 'min', 'avg', 'unique'] as const;
export type AggregationFunction = (typeof AGGREGATION_FUNCTIONS)[number];
export const TIME_INTERVALS = ['hour', 'day', 'week', 'month', 'year'] as const;
export type TimeInterval = (typeof TIME_INTERVALS)[number];

/** Polar's limit on a clause's string value. */
export const MAX_FILTER_STRING_LENGTH = 1000;
/** How deep and/or clauses may nest (Polar sets none; a bound keeps a request's SQL small). */
export const MAX_FILTER_DEPTH = 8;

export type FilterValue = string | number | boolean;
export interface FilterClause {
  property: string;
  operator: FilterOperator;
  value: FilterValue;
}
export interface Filter {
  conjunction: FilterConjunction;
  clauses: (FilterClause | Filter)[];
}
export type Aggregation =
  | { func: 'count' }
  | { func: 'sum' | 'max' | 'min' | 'avg'; property: string }
  | { func: 'unique'; property: string };

/** The event columns the SQL reads, as SQL expressions (e.g. `e.name`). */
export interface EventColumns {
  id: string;
  name: string;
  source: string;
  timestamp: string;
  metadata: string;
}

export const eventColumns = (alias: string): EventColumns => ({
  id: `${alias}.id`,
  name: `${alias}.name`,
  source: `${alias}.source`,
  timestamp: `${alias}.timestamp`,
  metadata: `${alias}.metadata`,
});

export interface Sql {
  sql: string;
  values: unknown[];
}

/** The event fields a clause may name; any other property is a metadata path (`_llm.total_tokens`). */
type FieldKind = 'text' | 'epoch';
const FIELDS: Record<string, FieldKind> = { name: 'text', source: 'text', timestamp: 'epoch' };

/** `metadata.x` and `x` are the same property, as in Polar. */
export const stripMetadataPrefix = (property: string): string => property.replace(/^metadata\./, '');

export const isFilter = (clause: FilterClause | Filter): clause is Filter => 'clauses' in clause;

const COMPARISON: Record<Exclude<FilterOperator, 'like' | 'not_like'>, string> = {
  eq: '=',
  ne: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
};

function compare(operator: FilterOperator, left: string, cast = ''): string {
  if (operator === 'like') return `(strpos(${left}, ?) > 0)`;
  if (operator === 'not_like') return `(not strpos(${left}, ?) > 0)`;
  return `(${left} ${COMPARISON[operator]} ?${cast})`;
}

/** Polar's string form of a value compared as text: booleans as PostgreSQL prints them. */
const textValue = (value: FilterValue): string => (typeof value === 'boolean' ? (value ? 't' : 'f') : String(value));

function fieldClause(clause: FilterClause, kind: FieldKind, columns: EventColumns): Sql {
  const column = clause.property === 'name' ? columns.name : clause.property === 'source' ? columns.source : '';
  const text = kind === 'text';
  // A value of the wrong type matches nothing (a name is never 3; a timestamp is never "x").
  if (text ? typeof clause.value !== 'string' : typeof clause.value !== 'number') return { sql: 'false', values: [] };
  const epoch = `extract(epoch from ${columns.timestamp})::bigint`;
  if (clause.operator === 'like' || clause.operator === 'not_like')
    return { sql: compare(clause.operator, text ? column : `${epoch}::text`), values: [textValue(clause.value)] };
  return text
    ? { sql: compare(clause.operator, column), values: [clause.value] }
    : { sql: compare(clause.operator, epoch, '::bigint'), values: [clause.value] };
}

/** A metadata path as the bound `text[]` of `#>` / `#>>`. */
export const metadataPath = (property: string): string[] => stripMetadataPrefix(property).split('.');

function metadataClause(clause: FilterClause, columns: EventColumns): Sql {
  const path = metadataPath(clause.property);
  const json = `(${columns.metadata} #> ?::text[])`;
  const text = `(${columns.metadata} #>> ?::text[])`;
  if (clause.operator === 'like' || clause.operator === 'not_like')
    return { sql: compare(clause.operator, text), values: [path, textValue(clause.value)] };
  // Compared as what the stored value is: a string as text, a number as a number, a boolean as a boolean.
  const parts = [`when 'string' then ${compare(clause.operator, text)}`];
  const values: unknown[] = [path, path, textValue(clause.value)];
  if (typeof clause.value !== 'string') {
    parts.push(`when 'number' then ${compare(clause.operator, `${text}::float8`, '::float8')}`);
    values.push(path, typeof clause.value === 'boolean' ? Number(clause.value) : clause.value);
  }
  if (typeof clause.value === 'boolean') {
    parts.push(`when 'boolean' then ${compare(clause.operator, `${text}::boolean`, '::boolean')}`);
    values.push(path, clause.value);
  }
  return { sql: `(case jsonb_typeof${json} ${parts.join(' ')} else false end)`, values };
}

/** One clause or a nested filter as a boolean SQL expression. An empty clause list is true, as in Polar. */
export function filterSql(filter: Filter | FilterClause, columns: EventColumns): Sql {
  if (!isFilter(filter)) {
    const property = stripMetadataPrefix(filter.property);
    const kind = FIELDS[property];
    return kind
      ? fieldClause({ ...filter, property }, kind, columns)
      : metadataClause({ ...filter, property }, columns);
  }
  if (filter.clauses.length === 0) return { sql: 'true', values: [] };
  const parts = filter.clauses.map(clause => filterSql(clause, columns));
  return {
    sql: `(${parts.map(p => p.sql).join(filter.conjunction === 'and' ? ' and ' : ' or ')})`,
    values: parts.flatMap(p => p.values),
  };
}

/**
 * What an aggregation adds up: the aggregate expression, and the condition an event must meet to be counted
 * (a numeric aggregation counts only events whose property is a number, as Polar).
 */
export function aggregationSql(aggregation: Aggregation, columns: EventColumns): { value: Sql; where: Sql } {
  if (aggregation.func === 'count') return { value: { sql: `count(${columns.id})`, values: [] }, where: TRUE };
  const property = stripMetadataPrefix(aggregation.property);
  const path = metadataPath(property);
  if (aggregation.func === 'unique')
    return { value: { sql: `count(distinct ${columns.metadata} #> ?::text[])`, values: [path] }, where: TRUE };
  const kind = FIELDS[property];
  if (kind === 'epoch')
    return {
      value: { sql: `${aggregation.func}(extract(epoch from ${columns.timestamp})::float8)`, values: [] },
      where: TRUE,
    };
  if (kind === 'text') return { value: { sql: `${aggregation.func}(null::float8)`, values: [] }, where: FALSE };
  return {
    value: { sql: `${aggregation.func}((${columns.metadata} #>> ?::text[])::float8)`, values: [path] },
    where: { sql: `(jsonb_typeof(${columns.metadata} #> ?::text[]) = 'number')`, values: [path] },
  };
}

const TRUE: Sql = { sql: 'true', values: [] };
const FALSE: Sql = { sql: 'false', values: [] };

/** The events a meter counts: its filter and its aggregation's condition. */
export function meterWhereSql(meter: { filter: Filter; aggregation: Aggregation }, columns: EventColumns): Sql {
  const filter = filterSql(meter.filter, columns);
  const { where } = aggregationSql(meter.aggregation, columns);
  return { sql: `(${filter.sql} and ${where.sql})`, values: [...filter.values, ...where.values] };
}

/**
 * How the running total is made from the buckets: counts and sums add up, a max is the max of maxima, a min the
 * min of minima; an average or a count of distinct values cannot be made from buckets and is computed over the
 * whole range (Polar's rule).
 */
export function totalFromBuckets(func: AggregationFunction): 'sum' | 'max' | 'min' | null {
  if (func === 'count' || func === 'sum') return 'sum';
  if (func === 'max' || func === 'min') return func;
  return null;
}

/** The SQL function a customer aggregation applies to per-customer quantities (`count` counts customers). */
const outerFunction = (func: AggregationFunction): string =>
  func === 'count' ? 'count' : func === 'unique' ? 'count(distinct' : func;

export interface QuantitiesQuery {
  meter: { filter: Filter; aggregation: Aggregation };
  /** SQL naming the events' table, e.g. `billing.usage_events`. */
  table: string;
  organizationId: string;
  start: Date;
  end: Date;
  interval: TimeInterval;
  /** An IANA time zone name, checked by the caller. */
  timezone: string;
  /** Extra conditions on `e` (customers, metadata), already compiled. */
  where?: Sql;
  /** Per customer first, then across customers with this function (Polar's `customer_aggregation_function`). */
  customerAggregation?: AggregationFunction | null;
}

/**
 * A meter's quantities as ONE statement: the buckets from `generate_series` in the time zone's wall clock, the
 * events of the range aggregated per bucket (and per customer when asked), left-joined, and the total as a
 * running aggregate over the buckets (or over the whole range for avg/unique). Rows: `timestamp` (timestamptz),
 * `quantity`, `total` (float8).
 */
export function quantitiesSql(query: QuantitiesQuery): Sql {
  const e = eventColumns('e');
  const meter = meterWhereSql(query.meter, e);
  const { value } = aggregationSql(query.meter.aggregation, e);
  const extra = query.where ?? TRUE;
  const unit = `'1 ${query.interval}'::interval`;
  const bucket = `date_trunc('${query.interval}', e.timestamp at time zone ?::text)`;
  // The events of the buckets: from the first bucket's start to the last bucket's end, in the time zone.
  const range =
    `e.timestamp >= (date_trunc('${query.interval}', ?::timestamptz at time zone ?::text) at time zone ?::text) and ` +
    `e.timestamp < ((date_trunc('${query.interval}', ?::timestamptz at time zone ?::text) + ${unit}) at time zone ?::text)`;
  const tz = query.timezone;
  const rangeValues = [query.start, tz, tz, query.end, tz, tz];
  const where = `e.organization_id = ?::uuid and ${range} and ${meter.sql} and ${extra.sql}`;
  const whereValues = [query.organizationId, ...rangeValues, ...meter.values, ...extra.values];
  const customer = query.customerAggregation;
  const bucketsSql = customer
    ? `select bucket, ${outerFunction(customer)}(quantity)${customer === 'unique' ? ')' : ''}::float8 as quantity from (` +
      `select ${bucket} as bucket, coalesce(e.customer_id::text, e.external_customer_id) as customer, ` +
      `${value.sql}::float8 as quantity from ${query.table} e where ${where} group by 1, 2) per_customer group by bucket`
    : `select ${bucket} as bucket, ${value.sql}::float8 as quantity from ${query.table} e where ${where} group by 1`;
  const bucketsValues = [tz, ...value.values, ...whereValues];
  const running = customer ? totalFromBuckets(customer) : totalFromBuckets(query.meter.aggregation.func);
  const total = running
    ? { sql: `coalesce(${running}(b.quantity) over (order by s.local), 0)`, values: [] as unknown[] }
    : customer
      ? {
          sql: `coalesce((select ${outerFunction(customer)}(quantity)${customer === 'unique' ? ')' : ''}::float8 from (select ${value.sql}::float8 as quantity from ${query.table} e where ${where} group by coalesce(e.customer_id::text, e.external_customer_id)) c), 0)`,
          values: [...value.values, ...whereValues],
        }
      : {
          sql: `coalesce((select ${value.sql}::float8 from ${query.table} e where ${where}), 0)`,
          values: [...value.values, ...whereValues],
        };
  const sql =
    `with series as (select generate_series(?::timestamptz at time zone ?::text, ?::timestamptz at time zone ?::text, ${unit}) as local), ` +
    `buckets as (${bucketsSql}) ` +
    `select (s.local at time zone ?::text) as timestamp, coalesce(b.quantity, 0)::float8 as quantity, ${total.sql}::float8 as total ` +
    `from series s left join buckets b on b.bucket = date_trunc('${query.interval}', s.local) order by s.local`;
  return { sql, values: [query.start, tz, query.end, tz, ...bucketsValues, tz, ...total.values] };
}

/** Polar's range limits of a quantities request: the most days each interval may span. */
export const MAX_INTERVAL_DAYS: Record<TimeInterval, number> = {
  hour: 7,
  day: 366,
  week: 7 * 53,
  month: 365 * 4,
  year: 365 * 10,
};

/** Polar's earliest start of a quantities request. */
export const MIN_QUANTITIES_START = new Date('2023-01-01T00:00:00Z');

/** Whether a range fits its interval (Polar compares calendar days of the two instants). */
export function isUnderLimits(start: Date, end: Date, interval: TimeInterval): boolean {
  if (start > end) return false;
  const day = (d: Date) => Math.floor(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) / 86_400_000);
  return day(end) - day(start) <= MAX_INTERVAL_DAYS[interval];
}
