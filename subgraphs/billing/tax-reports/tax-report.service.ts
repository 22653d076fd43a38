import { CORE_READERS, scopedOrganizationIds } from '../../../kit/database/tenant-scope.js';
import { PolarRequestValidationError, type ValidationIssue } from '../../../kit/errors.js';
import { type PageRequest, pageWindow, type Pagination, paginationOf } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { OrganizationDirectory } from '../../identity/contract.js';
import { taxRatesCsv } from './tax-report.csv.js';
import { jurisdictionsOf, orderShares, ratesOf, sortJurisdictions, summaryOf, type TaxShare } from './tax-report.js';
import { taxedOrders } from './tax-report.read.js';
import { jurisdictionOrder } from './tax-report.sorting.js';
import { TaxJurisdictionType, TaxRateReportType, type TaxSummaryType } from './tax-report.type.js';

/** The filters every tax report takes: the organizations (narrowing the caller's) and the order dates. */
export interface TaxReportQuery {
  organizationId?: string[] | null;
  /** `YYYY-MM-DD`, UTC days, both ends included. */
  startDate?: string | null;
  endDate?: string | null;
}

/**
 * The tax reports (docs/tax-reports.md): Polar's jurisdictions and summary, and beyond Polar the
 * per-rate rows of a One-Stop-Shop return with their CSV. Each reads the period's paid orders of the
 * caller's organizations in one statement and adds them up in memory (tax-report.ts).
 */
export class TaxReportService {
  /** Identity's profiles: the organization's default currency for the summary (null: `usd`). */
  constructor(private readonly organizations: OrganizationDirectory | null = null) {}

  async jurisdictions(
    ctx: RequestContext,
    query: TaxReportQuery & PageRequest & { sorting?: string[] | null },
  ): Promise<{ items: TaxJurisdictionType[]; pagination: Pagination }> {
    const criteria = jurisdictionOrder(query.sorting);
    const { shares } = await this.shares(ctx, query);
    const all = sortJurisdictions(jurisdictionsOf(shares), criteria).map(TaxJurisdictionType.of);
    return page(all, query);
  }

  /**
   * One currency per answer: `currency`, else the organization's `default_presentment_currency` when
   * the request reads one organization, else `usd` (Polar's answer when there is nothing to add up).
   */
  async summary(ctx: RequestContext, query: TaxReportQuery & { currency?: string | null }): Promise<TaxSummaryType> {
    if (query.currency != null && !/^[a-zA-Z]{3}$/.test(query.currency)) {
      throw new PolarRequestValidationError([
        {
          type: 'string_pattern_mismatch',
          loc: ['query', 'currency'],
          msg: 'Invalid currency.',
          input: query.currency,
        },
      ]);
    }
    const { shares, organizationIds } = await this.shares(ctx, query);
    const currency = query.currency?.toLowerCase() ?? (await this.defaultCurrency(organizationIds));
    return summaryOf(shares, currency);
  }

  async rates(
    ctx: RequestContext,
    query: TaxReportQuery & PageRequest,
  ): Promise<{ items: TaxRateReportType[]; pagination: Pagination }> {
    const { shares } = await this.shares(ctx, query);
    return page(ratesOf(shares).map(TaxRateReportType.of), query);
  }

  /** Every rate row of the period as CSV (RFC 4180, header row first). */
  async ratesCsv(ctx: RequestContext, query: TaxReportQuery): Promise<string> {
    const { shares } = await this.shares(ctx, query);
    return taxRatesCsv(ratesOf(shares));
  }

  private async shares(
    ctx: RequestContext,
    query: TaxReportQuery,
  ): Promise<{ shares: TaxShare[]; organizationIds: string[] }> {
    const period = periodOf(query);
    const organizationIds = scopedOrganizationIds(ctx.principal, CORE_READERS, query.organizationId);
    if (!organizationIds.length) return { shares: [], organizationIds };
    const orders = await taxedOrders(ctx.em, organizationIds, period);
    return { shares: orders.flatMap(orderShares), organizationIds };
  }

  private async defaultCurrency(organizationIds: readonly string[]): Promise<string> {
    if (organizationIds.length !== 1 || !this.organizations) return 'usd';
    return (await this.organizations.profile(organizationIds[0]))?.defaultPresentmentCurrency ?? 'usd';
  }
}

function page<T>(all: readonly T[], request: PageRequest): { items: T[]; pagination: Pagination } {
  const window = pageWindow(request);
  return {
    items: all.slice(window.offset, window.offset + window.limit),
    pagination: paginationOf(all.length, request.limit),
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** `[start 00:00 UTC, the day after end 00:00 UTC)`. @throws PolarRequestValidationError for a date that is no day. */
function periodOf(query: TaxReportQuery): { from: Date | null; to: Date | null } {
  const issues: ValidationIssue[] = [];
  const day = (value: string | null | undefined, key: string): Date | null => {
    if (value == null) return null;
    const at = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : null;
    if (at && !Number.isNaN(at.getTime()) && at.toISOString().startsWith(value)) return at;
    issues.push({ type: 'date_parsing', loc: ['query', key], msg: 'Input should be a valid date', input: value });
    return null;
  };
  const from = day(query.startDate, 'start_date');
  const end = day(query.endDate, 'end_date');
  if (issues.length) throw new PolarRequestValidationError(issues);
  return { from, to: end && new Date(end.getTime() + DAY_MS) };
}
