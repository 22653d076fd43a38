import { GraphQLScalarType } from 'graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';
import { METRIC_INTERVAL_LIMITS, METRICS_MIN_DATE } from './metric-window.js';

/**
 * A period's values, the totals or the metrics map, exactly as Polar's wire shows them: keys are metric slugs
 * (snake_case), values numbers (a period also has its `timestamp`; the map, `{slug, display_name, type}`).
 */
export const MetricValues = new GraphQLScalarType({
  ...GraphQLJSONObject.toConfig(),
  name: 'MetricValues',
  description: "Metric slug → value (or, in `metrics`, → `{slug, display_name, type}`), Polar's wire keys.",
});

/** Polar's MetricsResponse (docs/metrics.md). */
@ObjectType('MetricsResponse', { simpleResolvers: true })
export class MetricsResponseType {
  @Field(() => [MetricValues], { description: 'One entry per period: `timestamp` and each metric.' })
  periods!: Record<string, unknown>[];
  @Field(() => MetricValues, { description: 'Each metric over the whole range.' }) totals!: Record<string, unknown>;
  @Field(() => MetricValues, { description: 'The answered metrics: slug, display name, type.' })
  metrics!: Record<string, unknown>;
}

@ObjectType('MetricsIntervalLimit', { simpleResolvers: true })
export class MetricsIntervalLimitType {
  @Field(() => Int) minDays!: number;
  @Field(() => Int) maxDays!: number;
}

@ObjectType('MetricsIntervalsLimits', { simpleResolvers: true })
export class MetricsIntervalsLimitsType {
  @Field(() => MetricsIntervalLimitType) hour!: MetricsIntervalLimitType;
  @Field(() => MetricsIntervalLimitType) day!: MetricsIntervalLimitType;
  @Field(() => MetricsIntervalLimitType) week!: MetricsIntervalLimitType;
  @Field(() => MetricsIntervalLimitType) month!: MetricsIntervalLimitType;
  @Field(() => MetricsIntervalLimitType) year!: MetricsIntervalLimitType;
}

/** Polar's MetricsLimits: the first date and each interval's range. */
@ObjectType('MetricsLimits', { simpleResolvers: true })
export class MetricsLimitsType {
  @Field() minDate!: string;
  @Field(() => MetricsIntervalsLimitsType) intervals!: MetricsIntervalsLimitsType;

  static current(): MetricsLimitsType {
    return { minDate: METRICS_MIN_DATE, intervals: { ...METRIC_INTERVAL_LIMITS } };
  }
}
