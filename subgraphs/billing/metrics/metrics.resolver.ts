import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { PolarRequestValidationError } from '../../../kit/errors.js';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import {
  MetricDashboardCreateInput,
  MetricDashboardType,
  MetricDashboardUpdateInput,
} from './metric-dashboard.type.js';
import type { BillingType } from './metric-sql.js';
import { METRIC_INTERVALS, type MetricInterval } from './metric-window.js';
import { METRICS_READ, METRICS_WRITE } from './metrics.access.js';
import { metricsCsv } from './metrics.csv.js';
import { MetricsQueryInput } from './metrics.inputs.js';
import type { MetricsRequest } from './metrics.service.js';
import { MetricsLimitsType, MetricsResponseType } from './metrics.type.js';
import { onReadReplica } from '../../../kit/database/read-replicas.js';

/** `/v1/metrics/`: the numbers, their CSV, the limits table, and the dashboards (docs/metrics.md). */
@Resolver()
export class MetricsResolver {
  @Query(() => MetricsResponseType, { description: "Metrics of the caller's organizations, per period." })
  async metrics(@Ctx() ctx: BillingContext, @Arg('query') query: MetricsQueryInput): Promise<MetricsResponseType> {
    authorize(ctx.principal, METRICS_READ);
    return ctx.services.metrics.get(onReadReplica(ctx), metricsRequest(query));
  }

  @Query(() => String, { description: 'The same metrics as CSV: a Timestamp column, then one per metric.' })
  async metricsExport(@Ctx() ctx: BillingContext, @Arg('query') query: MetricsQueryInput): Promise<string> {
    authorize(ctx.principal, METRICS_READ);
    return metricsCsv(await ctx.services.metrics.get(onReadReplica(ctx), metricsRequest(query)));
  }

  @Query(() => MetricsLimitsType, { description: "Polar's limits: the first date, each interval's range in days." })
  metricsLimits(@Ctx() ctx: BillingContext): MetricsLimitsType {
    authorize(ctx.principal, METRICS_READ);
    return MetricsLimitsType.current();
  }

  @Query(() => [MetricDashboardType], { description: "Metric dashboards of the caller's organizations." })
  async metricDashboards(
    @Ctx() ctx: BillingContext,
    @Arg('organizationId', () => [ID], { nullable: true }) organizationId: string[] | null,
  ): Promise<MetricDashboardType[]> {
    authorize(ctx.principal, METRICS_READ);
    return ctx.services.metricDashboards.list(ctx, organizationId);
  }

  @Query(() => MetricDashboardType)
  async metricDashboard(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<MetricDashboardType> {
    authorize(ctx.principal, METRICS_READ);
    return ctx.services.metricDashboards.get(ctx, id);
  }

  @Mutation(() => MetricDashboardType)
  async createMetricDashboard(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: MetricDashboardCreateInput,
  ): Promise<MetricDashboardType> {
    authorize(ctx.principal, METRICS_WRITE);
    return ctx.services.metricDashboards.create(ctx, input);
  }

  @Mutation(() => MetricDashboardType)
  async updateMetricDashboard(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: MetricDashboardUpdateInput,
  ): Promise<MetricDashboardType> {
    authorize(ctx.principal, METRICS_WRITE);
    return ctx.services.metricDashboards.update(ctx, id, input);
  }

  @Mutation(() => Boolean)
  async deleteMetricDashboard(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<boolean> {
    authorize(ctx.principal, METRICS_WRITE);
    await ctx.services.metricDashboards.delete(ctx, id);
    return true;
  }
}

const BILLING_TYPES: readonly string[] = ['recurring', 'one_time'];

/** The input as the service takes it; an interval or billing type GraphQL let through is checked as the edge does. */
function metricsRequest(query: MetricsQueryInput): MetricsRequest {
  if (!(METRIC_INTERVALS as readonly string[]).includes(query.interval))
    throw enumError('interval', query.interval, METRIC_INTERVALS);
  for (const type of query.billingType ?? [])
    if (!BILLING_TYPES.includes(type)) throw enumError('billing_type', type, BILLING_TYPES);
  return { ...query, interval: query.interval as MetricInterval, billingType: query.billingType as BillingType[] };
}

function enumError(field: string, input: string, allowed: readonly string[]): PolarRequestValidationError {
  return new PolarRequestValidationError([
    { type: 'enum', loc: ['query', field], msg: `Input should be ${allowed.map(v => `'${v}'`).join(', ')}`, input },
  ]);
}
