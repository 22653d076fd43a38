import type { ValidationIssue } from '../../../kit/errors.js';
import {
  AGGREGATION_FUNCTIONS,
  type Aggregation,
  FILTER_CONJUNCTIONS,
  FILTER_OPERATORS,
  type Filter,
  type FilterClause,
  MAX_FILTER_DEPTH,
  MAX_FILTER_STRING_LENGTH,
  stripMetadataPrefix,
} from './meter-sql.js';

/**
 * A meter's filter and aggregation read from JSON (a GraphQL client's input; the REST edge has already checked
 * the same shape with its schema): the typed value, or pydantic-shaped issues at `loc`. Property names lose
 * their `metadata.` prefix, as in Polar.
 */
type Parsed<T> = { value: T; issues: [] } | { value: null; issues: ValidationIssue[] };

const issue = (loc: (string | number)[], msg: string, input: unknown, type = 'value_error'): ValidationIssue => ({
  type,
  loc,
  msg,
  input,
});
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const INT32 = 2 ** 31;

function clauseIssues(value: unknown, loc: (string | number)[], depth: number): ValidationIssue[] {
  if (!isObject(value)) return [issue(loc, 'Input should be a valid dictionary', value, 'dict_type')];
  if ('clauses' in value) return filterIssues(value, loc, depth + 1);
  const issues: ValidationIssue[] = [];
  if (typeof value.property !== 'string')
    issues.push(issue([...loc, 'property'], 'Input should be a valid string', value.property, 'string_type'));
  if (!FILTER_OPERATORS.includes(value.operator as never))
    issues.push(issue([...loc, 'operator'], `Input should be ${FILTER_OPERATORS.join(', ')}`, value.operator, 'enum'));
  const v = value.value;
  const ok =
    (typeof v === 'string' && v.length <= MAX_FILTER_STRING_LENGTH) ||
    typeof v === 'boolean' ||
    (typeof v === 'number' && Number.isInteger(v) && v >= -INT32 && v < INT32);
  if (!ok) issues.push(issue([...loc, 'value'], 'Input should be a string, a 32-bit integer or a boolean', v));
  return issues;
}

function filterIssues(value: unknown, loc: (string | number)[], depth = 0): ValidationIssue[] {
  if (!isObject(value)) return [issue(loc, 'Input should be a valid dictionary', value, 'dict_type')];
  if (depth > MAX_FILTER_DEPTH) return [issue(loc, `Filters nest at most ${MAX_FILTER_DEPTH} levels`, value)];
  const issues: ValidationIssue[] = [];
  if (!FILTER_CONJUNCTIONS.includes(value.conjunction as never))
    issues.push(issue([...loc, 'conjunction'], "Input should be 'and' or 'or'", value.conjunction, 'enum'));
  if (!Array.isArray(value.clauses))
    issues.push(issue([...loc, 'clauses'], 'Input should be a valid list', value.clauses, 'list_type'));
  else for (const [i, c] of value.clauses.entries()) issues.push(...clauseIssues(c, [...loc, 'clauses', i], depth));
  return issues;
}

function normalized(filter: Filter): Filter {
  return {
    conjunction: filter.conjunction,
    clauses: filter.clauses.map(c =>
      'clauses' in c
        ? normalized(c)
        : ({ property: stripMetadataPrefix(c.property), operator: c.operator, value: c.value } as FilterClause),
    ),
  };
}

export function parseFilter(value: unknown, loc: (string | number)[]): Parsed<Filter> {
  const issues = filterIssues(value, loc);
  return issues.length ? { value: null, issues } : { value: normalized(value as Filter), issues: [] };
}

export function parseAggregation(value: unknown, loc: (string | number)[]): Parsed<Aggregation> {
  if (!isObject(value)) return { value: null, issues: [issue(loc, 'Input should be a valid dictionary', value)] };
  const func = value.func;
  if (!AGGREGATION_FUNCTIONS.includes(func as never))
    return {
      value: null,
      issues: [
        issue([...loc, 'func'], `Input should be ${AGGREGATION_FUNCTIONS.join(', ')}`, func, 'union_tag_invalid'),
      ],
    };
  if (func === 'count') return { value: { func: 'count' }, issues: [] };
  if (typeof value.property !== 'string')
    return {
      value: null,
      issues: [issue([...loc, func as string, 'property'], 'Field required', value.property, 'missing')],
    };
  return {
    value: { func, property: stripMetadataPrefix(value.property) } as Aggregation,
    issues: [],
  };
}
