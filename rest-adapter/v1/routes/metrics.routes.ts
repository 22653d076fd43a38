import { z } from 'zod';
import { METRIC_INTERVALS, METRICS_READ, METRICS_WRITE } from '../../../subgraphs/billing/contract.js';
import { idParams, isRealDate, toInput, toWire } from './common.js';
import type { Route } from './route.js';

const many = <T extends z.ZodType>(item: T) => z.array(item).optional();
const dateTime = z.iso.datetime({ offset: true });
const day = z.iso.date().refine(isRealDate, { message: 'Input should be a valid date' });

/** Polar's parameters of `GET /v1/metrics/` and of its export. */
const metricsQuery = z.object({
  start_date: day,
  end_date: day,
  timezone: z.string().optional().meta({ description: 'IANA time zone of the periods, default UTC.' }),
  interval: z.enum(METRIC_INTERVALS),
  organization_id: many(z.uuid()),
  product_id: many(z.uuid()),
  billing_type: many(z.enum(['recurring', 'one_time'])),
  customer_id: many(z.uuid()),
  metrics: many(z.string()).meta({ description: 'Metric slugs to answer; all when absent.' }),
});

const metricInfo = z.object({
  slug: z.string(),
  display_name: z.string(),
  type: z.enum(['scalar', 'currency', 'currency_sub_cent', 'percentage']),
});

/** Polar's MetricsResponse: keys of a period and of the totals are the answered metrics' slugs. */
const metricsResponse = z.object({
  periods: z.array(z.object({ timestamp: dateTime }).catchall(z.number())),
  totals: z.record(z.string(), z.number()),
  metrics: z.record(z.string(), metricInfo),
});

const intervalLimit = z.object({ min_days: z.number().int(), max_days: z.number().int() });
const metricsLimits = z.object({
  min_date: z.iso.date(),
  intervals: z.object({
    hour: intervalLimit,
    day: intervalLimit,
    week: intervalLimit,
    month: intervalLimit,
    year: intervalLimit,
  }),
});

const dashboardResponse = z.object({
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  id: z.uuid(),
  name: z.string(),
  metrics: z.array(z.string()),
  organization_id: z.uuid(),
});

const dashboardCreate = z.strictObject({
  name: z.string().min(1),
  metrics: z.array(z.string()).max(10).optional(),
  organization_id: z.uuid().nullish(),
});

const dashboardUpdate = z.strictObject({
  name: z.string().min(1).nullish(),
  metrics: z.array(z.string()).max(10).nullish(),
});

const QUERY_422 =
  '422 at `metrics` for a slug Polar does not define, at `timezone` for an unknown time zone, and at the query ' +
  "when the range is longer than the interval's limit (`GET /v1/metrics/limits`).";

/** `/v1/metrics/`: the numbers, their CSV, the limits table and the dashboards (docs/metrics.md). */
export const metricRoutes: Route[] = [
  {
    operationId: 'metrics:get',
    method: 'get',
    path: '/v1/metrics/',
    summary: 'Get metrics',
    description:
      "The caller's organizations' numbers per period, the totals over the range, and the answered metrics. Money " +
      `is in minor units. A metric this service cannot compute is absent (docs/metrics.md). ${QUERY_422}`,
    tag: 'metrics',
    access: METRICS_READ,
    query: metricsQuery,
    operation: 'MetricsGet',
    variables: ({ query }) => ({ query: toInput(query) }),
    result: data => data.metrics,
    status: 200,
    response: metricsResponse,
  },
  {
    operationId: 'metrics:export',
    method: 'get',
    path: '/v1/metrics/export',
    summary: 'Export metrics as CSV',
    description: `A \`Timestamp\` column, then one column per answered metric, headed by its display name. ${QUERY_422}`,
    tag: 'metrics',
    access: METRICS_READ,
    query: metricsQuery,
    operation: 'MetricsExport',
    variables: ({ query }) => ({ query: toInput(query) }),
    result: data => data.metricsExport,
    status: 200,
    contentType: 'text/csv',
    attachment: 'polar-metrics.csv',
    response: z.string(),
  },
  {
    operationId: 'metrics:limits',
    method: 'get',
    path: '/v1/metrics/limits',
    summary: 'Get metrics limits',
    tag: 'metrics',
    access: METRICS_READ,
    operation: 'MetricsLimits',
    variables: () => ({}),
    result: data => toWire(data.metricsLimits),
    status: 200,
    response: metricsLimits,
  },
  {
    operationId: 'metrics:list_dashboards',
    method: 'get',
    path: '/v1/metrics/dashboards',
    summary: 'List metric dashboards',
    tag: 'metrics',
    access: METRICS_READ,
    query: z.object({ organization_id: many(z.uuid()) }),
    operation: 'MetricDashboardsList',
    variables: ({ query }) => ({ organizationId: query.organization_id ?? null }),
    result: data => toWire(data.metricDashboards),
    status: 200,
    response: z.array(dashboardResponse),
  },
  {
    operationId: 'metrics:create_dashboard',
    method: 'post',
    path: '/v1/metrics/dashboards',
    summary: 'Create a metric dashboard',
    tag: 'metrics',
    access: METRICS_WRITE,
    body: dashboardCreate,
    operation: 'MetricDashboardsCreate',
    variables: ({ body }) => ({ input: toInput(body) }),
    result: data => toWire(data.createMetricDashboard),
    status: 201,
    response: dashboardResponse,
  },
  {
    operationId: 'metrics:get_dashboard',
    method: 'get',
    path: '/v1/metrics/dashboards/{id}',
    summary: 'Get a metric dashboard',
    tag: 'metrics',
    access: METRICS_READ,
    params: idParams,
    operation: 'MetricDashboardsGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => toWire(data.metricDashboard),
    status: 200,
    response: dashboardResponse,
    errors: [404],
  },
  {
    operationId: 'metrics:update_dashboard',
    method: 'patch',
    path: '/v1/metrics/dashboards/{id}',
    summary: 'Update a metric dashboard',
    tag: 'metrics',
    access: METRICS_WRITE,
    params: idParams,
    body: dashboardUpdate,
    operation: 'MetricDashboardsUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: toInput(body) }),
    result: data => toWire(data.updateMetricDashboard),
    status: 200,
    response: dashboardResponse,
    errors: [404],
  },
  {
    operationId: 'metrics:delete_dashboard',
    method: 'delete',
    path: '/v1/metrics/dashboards/{id}',
    summary: 'Delete a metric dashboard',
    tag: 'metrics',
    access: METRICS_WRITE,
    params: idParams,
    operation: 'MetricDashboardsDelete',
    variables: ({ params }) => ({ id: params.id }),
    result: () => undefined,
    status: 204,
    errors: [404],
  },
];
