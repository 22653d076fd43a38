import { z } from 'zod';
import {
  TAX_JURISDICTION_DEFAULT_SORTING,
  TAX_JURISDICTION_SORT_KEYS,
  TAXES_READ,
} from '../../../subgraphs/billing/contract.js';
import { pydanticIssue } from '../validation.js';
import { isRealDate, listOf, pageQuery, sortingQuery, toWire } from './common.js';
import type { Route } from './route.js';

/** A UTC day, `YYYY-MM-DD` (pydantic's `date`), on the calendar. */
const day = (description: string) =>
  z.iso
    .date()
    .superRefine((value, ctx) => {
      if (!isRealDate(value)) pydanticIssue(ctx, value, 'date_parsing', 'Input should be a valid date');
    })
    .optional()
    .meta({ description });

const filters = {
  organization_id: z.array(z.uuid()).optional().meta({ description: 'Filter by organization ID.' }),
  start_date: day('Only orders made on or after this UTC day.'),
  end_date: day('Only orders made on or before this UTC day.'),
};

const variablesOf = (query: Record<string, any>) => ({
  organizationId: query.organization_id ?? null,
  startDate: query.start_date ?? null,
  endDate: query.end_date ?? null,
});

const NETTED = 'In minor units of `currency`; refunds are netted out.';

const taxJurisdiction = z.object({
  id: z.string().meta({ description: '`{country}-{state}` for the US and Canada (e.g. `US-CA`), else the country.' }),
  country: z.string(),
  state: z.string().nullable().meta({ description: 'US and Canadian subdivision, without the country prefix.' }),
  currency: z.string(),
  tax_amount: z.number().int().meta({ description: NETTED }),
  order_count: z.number().int(),
  country_name: z.string(),
  state_name: z.string().nullable(),
});

const taxSummary = z.object({
  currency: z.string(),
  tax_amount: z.number().int().meta({ description: NETTED }),
  order_count: z.number().int(),
  jurisdiction_count: z.number().int(),
});

const taxRate = z.object({
  country: z.string(),
  state: z.string().nullable(),
  rate: z.number().nullable().meta({ description: 'The rate in percent (19 for 19 %); null when none applied.' }),
  currency: z.string(),
  net_amount: z.number().int().meta({ description: NETTED }),
  tax_amount: z.number().int().meta({ description: NETTED }),
  order_count: z.number().int(),
});

const REPORTS =
  'Tax collected on paid orders, dated by the order (UTC days); a refund reduces its own order. Orders whose ' +
  'tax breakdown says nothing was collected make no jurisdiction.';

/** Polar's tax reports (`/v1/taxes/`) and, beyond Polar, the per-rate rows of a One-Stop-Shop return. */
export const taxRoutes: Route[] = [
  {
    operationId: 'taxes:list_jurisdictions',
    method: 'get',
    path: '/v1/taxes/jurisdictions',
    summary: 'List tax jurisdictions',
    description: `${REPORTS} US and Canadian jurisdictions are states and provinces; elsewhere countries.`,
    tag: 'taxes',
    access: TAXES_READ,
    query: z.object({
      ...filters,
      ...pageQuery,
      sorting: sortingQuery(TAX_JURISDICTION_SORT_KEYS, TAX_JURISDICTION_DEFAULT_SORTING),
    }),
    operation: 'TaxJurisdictionsList',
    variables: ({ query }) => ({ ...variablesOf(query), page: query.page, limit: query.limit, sorting: query.sorting }),
    result: data => toWire(data.taxJurisdictions),
    status: 200,
    response: listOf(taxJurisdiction),
  },
  {
    operationId: 'taxes:get_summary',
    method: 'get',
    path: '/v1/taxes/summary',
    summary: 'Get the tax summary',
    description: `${REPORTS} One currency per answer: \`currency\`, else the organization's default presentment currency.`,
    tag: 'taxes',
    access: TAXES_READ,
    query: z.object({
      ...filters,
      currency: z
        .string()
        .regex(/^[a-zA-Z]{3}$/, 'Input should be a three-letter ISO 4217 currency code')
        .optional()
        .meta({ description: "ISO 4217; default: the organization's `default_presentment_currency`." }),
    }),
    operation: 'TaxSummaryGet',
    variables: ({ query }) => ({ ...variablesOf(query), currency: query.currency ?? null }),
    result: data => toWire(data.taxSummary),
    status: 200,
    response: taxSummary,
  },
  {
    operationId: 'taxes:list_rates',
    method: 'get',
    path: '/v1/taxes/rates',
    summary: 'List tax collected per rate (One-Stop-Shop return)',
    description: `Beyond Polar. ${REPORTS} One row per country, state, rate and currency, ordered so.`,
    tag: 'taxes',
    access: TAXES_READ,
    query: z.object({ ...filters, ...pageQuery }),
    operation: 'TaxRatesList',
    variables: ({ query }) => ({ ...variablesOf(query), page: query.page, limit: query.limit }),
    result: data => toWire(data.taxRates),
    status: 200,
    response: listOf(taxRate),
  },
  {
    operationId: 'taxes:export_rates',
    method: 'get',
    path: '/v1/taxes/rates/export',
    summary: 'Export tax collected per rate as CSV',
    description: `Beyond Polar. Every row of \`GET /v1/taxes/rates\` as CSV (RFC 4180, header row first).`,
    tag: 'taxes',
    access: TAXES_READ,
    query: z.object(filters),
    operation: 'TaxRatesExport',
    variables: ({ query }) => variablesOf(query),
    result: data => data.taxRatesExport as string,
    status: 200,
    contentType: 'text/csv',
    response: z.string(),
  },
];
