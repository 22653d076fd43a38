import { Field, Float, Int, ObjectType } from 'type-graphql';
import { countryName, subdivisionName } from '../../../kit/countries.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { MinorUnits } from '../shared/scalars.js';
import type { Jurisdiction, RateRow } from './tax-report.js';

const SIMPLE = { simpleResolvers: true } as const;

/** Polar's TaxJurisdiction: the tax collected in one jurisdiction and currency, refunds netted out. */
@ObjectType('TaxJurisdiction', SIMPLE)
export class TaxJurisdictionType {
  @Field({ description: '`{country}-{state}` for the US and Canada (`US-CA`), else the country (`GB`).' })
  id!: string;
  @Field() country!: string;
  @Field(() => String, { nullable: true, description: 'US and Canadian subdivision, without the country prefix.' })
  state!: string | null;
  @Field() currency!: string;
  @Field(() => MinorUnits) taxAmount!: bigint;
  @Field(() => Int) orderCount!: number;
  @Field() countryName!: string;
  @Field(() => String, { nullable: true }) stateName!: string | null;

  static of(j: Jurisdiction): TaxJurisdictionType {
    return {
      id: j.state ? `${j.country}-${j.state}` : j.country,
      country: j.country,
      state: j.state,
      currency: j.currency,
      taxAmount: j.taxAmount,
      orderCount: j.orderCount,
      countryName: countryName(j.country),
      stateName: j.state ? subdivisionName(j.country, j.state) : null,
    };
  }
}

@ObjectType('TaxJurisdictionList', SIMPLE)
export class TaxJurisdictionList extends ListResource(TaxJurisdictionType) {}

/** Polar's TaxSummary, in one currency. */
@ObjectType('TaxSummary', SIMPLE)
export class TaxSummaryType {
  @Field() currency!: string;
  @Field(() => MinorUnits) taxAmount!: bigint;
  @Field(() => Int) orderCount!: number;
  @Field(() => Int) jurisdictionCount!: number;
}

/** Beyond Polar: a row of the One-Stop-Shop return, per country, state, rate and currency. */
@ObjectType('TaxRateReport', SIMPLE)
export class TaxRateReportType {
  @Field() country!: string;
  @Field(() => String, { nullable: true }) state!: string | null;
  @Field(() => Float, { nullable: true, description: 'The rate in percent (19 for 19 %); null when none applied.' })
  rate!: number | null;
  @Field() currency!: string;
  @Field(() => MinorUnits) netAmount!: bigint;
  @Field(() => MinorUnits) taxAmount!: bigint;
  @Field(() => Int) orderCount!: number;

  static of(row: RateRow): TaxRateReportType {
    const { country, state, rate, currency, netAmount, taxAmount, orderCount } = row;
    return { country, state, rate, currency, netAmount, taxAmount, orderCount };
  }
}

@ObjectType('TaxRateReportList', SIMPLE)
export class TaxRateReportList extends ListResource(TaxRateReportType) {}
