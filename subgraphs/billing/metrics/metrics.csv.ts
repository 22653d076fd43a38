import { csvField } from '../shared/csv.js';
import type { MetricsAnswer } from './metrics.service.js';

/**
 * `GET /v1/metrics/export` as Polar writes it: a `Timestamp` column (Python's ISO form, `+00:00` rather than `Z`)
 * then one column per answered metric, headed by its display name, in the answer's order; CRLF line ends.
 * Fractions are written as Python writes a float (`0.0`, `0.25`), whole values as integers.
 */
export function metricsCsv(answer: MetricsAnswer): string {
  const metrics = Object.values(answer.metrics);
  const fractional = new Set(metrics.filter(m => m.type === 'percentage').map(m => m.slug));
  fractional.add('average_seats_per_customer');
  const header = ['Timestamp', ...metrics.map(m => m.display_name)];
  const rows = answer.periods.map(period => [
    String(period.timestamp).replace(/Z$/, '+00:00'),
    ...metrics.map(m => {
      const value = period[m.slug] as number | undefined;
      if (value === undefined) return '';
      return fractional.has(m.slug) && Number.isInteger(value) ? `${value}.0` : String(value);
    }),
  ]);
  return [header, ...rows].map(row => `${row.map(csvField).join(',')}\r\n`).join('');
}
