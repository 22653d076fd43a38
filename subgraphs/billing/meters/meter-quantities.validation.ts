import type { ValidationIssue } from '../../../kit/errors.js';
import type { MeterQuantitiesInput } from './meter.inputs.js';
import { AGGREGATION_FUNCTIONS, MIN_QUANTITIES_START, TIME_INTERVALS } from './meter-sql.js';

/** Whether PostgreSQL and the platform both know the time zone (an IANA name such as `Europe/Paris`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(name);
  } catch {
    return false;
  }
}

/** A quantities request's query, as Polar checks it (the range limits apart: MeterService). */
export function quantitiesIssues(input: MeterQuantitiesInput): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const q = (field: string) => ['query', field];
  if (input.startTimestamp < MIN_QUANTITIES_START)
    issues.push({
      type: 'greater_than_equal',
      loc: q('start_timestamp'),
      msg: 'Input should be greater than or equal to 2023-01-01T00:00:00Z',
      input: input.startTimestamp.toISOString(),
    });
  if (!(TIME_INTERVALS as readonly string[]).includes(input.interval))
    issues.push({
      type: 'enum',
      loc: q('interval'),
      msg: `Input should be ${TIME_INTERVALS.join(', ')}`,
      input: input.interval,
    });
  if (input.timezone != null && !isTimeZone(input.timezone))
    issues.push({ type: 'value_error', loc: q('timezone'), msg: 'Invalid timezone name', input: input.timezone });
  const func = input.customerAggregationFunction;
  if (func != null && !(AGGREGATION_FUNCTIONS as readonly string[]).includes(func))
    issues.push({
      type: 'enum',
      loc: q('customer_aggregation_function'),
      msg: `Input should be ${AGGREGATION_FUNCTIONS.join(', ')}`,
      input: func,
    });
  return issues;
}
