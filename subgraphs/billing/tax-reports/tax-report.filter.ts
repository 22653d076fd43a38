import { Field, ID, InputType } from 'type-graphql';

/**
 * `taxJurisdictions(filter:)` and `taxRates(filter:)`: the tax reports' filters in one input, as every list
 * of the graph takes them (docs/graphql.md#filters); both lists report over the same orders.
 */
@InputType('TaxReportFilter')
export class TaxReportFilterInput {
  @Field(() => [ID], { nullable: true, description: 'Only these organizations (of those the caller may read).' })
  organizationId?: string[] | null;
  @Field(() => String, { nullable: true, description: 'Orders on or after this UTC day (YYYY-MM-DD).' })
  startDate?: string | null;
  @Field(() => String, { nullable: true, description: 'Orders on or before this UTC day (YYYY-MM-DD).' })
  endDate?: string | null;
}
