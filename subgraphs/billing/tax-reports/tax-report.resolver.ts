import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import type { BillingContext } from '../context.js';
import { TAXES_READ } from './tax-report.access.js';
import { TaxReportFilterInput } from './tax-report.filter.js';
import { TaxJurisdictionList, TaxRateReportList, TaxSummaryType } from './tax-report.type.js';
import { onReadReplica } from '../../../kit/database/read-replicas.js';

const organizationArg = { nullable: true, description: 'Only these organizations (of those the caller may read).' };
const startArg = { nullable: true, description: 'Orders on or after this UTC day (YYYY-MM-DD).' };
const endArg = { nullable: true, description: 'Orders on or before this UTC day (YYYY-MM-DD).' };
/** The lists' separate arguments, deprecated for their `filter` (the summary and the export keep them). */
const replaced = <T extends object>(options: T) => ({ ...options, deprecationReason: FILTER_REPLACES });

/** `/v1/taxes/`: the tax collected, by jurisdiction, in total and by rate (docs/tax-reports.md). */
@Resolver()
export class TaxReportResolver {
  @Query(() => TaxJurisdictionList, { description: 'Tax collected per jurisdiction and currency, refunds netted.' })
  async taxJurisdictions(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => TaxReportFilterInput, { nullable: true }) filter: TaxReportFilterInput | null,
    @Arg('organizationId', () => [ID], replaced(organizationArg)) organizationId: string[] | null,
    @Arg('startDate', () => String, replaced(startArg)) startDate: string | null,
    @Arg('endDate', () => String, replaced(endArg)) endDate: string | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], {
      nullable: true,
      description: 'tax_amount, order_count, country; `-` = descending.',
    })
    sorting: string[] | null,
  ): Promise<TaxJurisdictionList> {
    authorize(ctx.principal, TAXES_READ);
    return ctx.services.taxReports.jurisdictions(onReadReplica(ctx), {
      ...mergeFilter(filter, { organizationId, startDate, endDate }),
      page,
      limit,
      sorting,
    });
  }

  @Query(() => TaxSummaryType, { description: 'Tax collected in one currency over every jurisdiction.' })
  async taxSummary(
    @Ctx() ctx: BillingContext,
    @Arg('organizationId', () => [ID], organizationArg) organizationId: string[] | null,
    @Arg('startDate', () => String, startArg) startDate: string | null,
    @Arg('endDate', () => String, endArg) endDate: string | null,
    @Arg('currency', () => String, { nullable: true, description: "Default: the organization's presentment currency." })
    currency: string | null,
  ): Promise<TaxSummaryType> {
    authorize(ctx.principal, TAXES_READ);
    return ctx.services.taxReports.summary(onReadReplica(ctx), { organizationId, startDate, endDate, currency });
  }

  @Query(() => TaxRateReportList, { description: 'Beyond Polar: net and tax per country, state, rate and currency.' })
  async taxRates(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => TaxReportFilterInput, { nullable: true }) filter: TaxReportFilterInput | null,
    @Arg('organizationId', () => [ID], replaced(organizationArg)) organizationId: string[] | null,
    @Arg('startDate', () => String, replaced(startArg)) startDate: string | null,
    @Arg('endDate', () => String, replaced(endArg)) endDate: string | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
  ): Promise<TaxRateReportList> {
    authorize(ctx.principal, TAXES_READ);
    return ctx.services.taxReports.rates(onReadReplica(ctx), {
      ...mergeFilter(filter, { organizationId, startDate, endDate }),
      page,
      limit,
    });
  }

  @Query(() => String, { description: 'Beyond Polar: the rate rows as CSV (RFC 4180, header row first).' })
  async taxRatesExport(
    @Ctx() ctx: BillingContext,
    @Arg('organizationId', () => [ID], organizationArg) organizationId: string[] | null,
    @Arg('startDate', () => String, startArg) startDate: string | null,
    @Arg('endDate', () => String, endArg) endDate: string | null,
  ): Promise<string> {
    authorize(ctx.principal, TAXES_READ);
    return ctx.services.taxReports.ratesCsv(onReadReplica(ctx), { organizationId, startDate, endDate });
  }
}
