import { Field, GraphQLISODateTime, ID, InputType, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toDate } from '../../../kit/database/read/values.js';
import type { MetricDashboard } from './metric-dashboard.entity.js';

/** Polar's MetricDashboardSchema. */
@ObjectType('MetricDashboard', { simpleResolvers: true })
export class MetricDashboardType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field() name!: string;
  @Field(() => [String], { description: 'Metric slugs shown on the dashboard.' }) metrics!: string[];
  @Field(() => ID) organizationId!: string;

  static fromRow(row: ReadRow): MetricDashboardType {
    return MetricDashboardType.fromEntity(row.d as MetricDashboard);
  }

  static fromEntity(d: Readonly<MetricDashboard>): MetricDashboardType {
    return {
      id: d.id,
      createdAt: toDate(d.createdAt),
      modifiedAt: toDate(d.modifiedAt),
      name: d.name,
      metrics: [...(d.metrics ?? [])],
      organizationId: d.organizationId,
    };
  }
}

/** Polar's MetricDashboardCreate. */
@InputType('MetricDashboardCreateInput')
export class MetricDashboardCreateInput {
  @Field() name!: string;
  @Field(() => [String], { nullable: true }) metrics?: string[] | null;
  @Field(() => ID, { nullable: true }) organizationId?: string | null;
}

/** Polar's MetricDashboardUpdate: absent fields are left as they are. */
@InputType('MetricDashboardUpdateInput')
export class MetricDashboardUpdateInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => [String], { nullable: true }) metrics?: string[] | null;
}
