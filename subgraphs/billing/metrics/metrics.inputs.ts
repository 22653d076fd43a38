import { Field, ID, InputType } from 'type-graphql';

/** The query of `GET /v1/metrics/` and its export (Polar's parameters; dates are ISO `YYYY-MM-DD`). */
@InputType('MetricsQueryInput')
export class MetricsQueryInput {
  @Field() startDate!: string;
  @Field() endDate!: string;
  @Field({ description: 'hour | day | week | month | year' }) interval!: string;
  @Field(() => String, { nullable: true, description: 'IANA time zone of the periods, default UTC.' })
  timezone?: string | null;
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [ID], { nullable: true }) productId?: string[] | null;
  @Field(() => [String], { nullable: true, description: 'recurring | one_time' }) billingType?: string[] | null;
  @Field(() => [ID], { nullable: true }) customerId?: string[] | null;
  @Field(() => [String], { nullable: true, description: 'Metric slugs; all when absent.' }) metrics?: string[] | null;
}
