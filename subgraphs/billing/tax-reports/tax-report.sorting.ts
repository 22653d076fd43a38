import { sortCriteria } from '../shared/sorting.js';
import type { JurisdictionSortKey } from './tax-report.js';

/** Polar's sort keys of `GET /v1/taxes/jurisdictions`, and its default (the largest tax first). */
export const TAX_JURISDICTION_SORT_KEYS: readonly JurisdictionSortKey[] = ['tax_amount', 'order_count', 'country'];
export const TAX_JURISDICTION_DEFAULT_SORTING = ['-tax_amount'];

export const jurisdictionOrder = (sorting: readonly string[] | null | undefined) =>
  sortCriteria(sorting ?? [], TAX_JURISDICTION_SORT_KEYS, TAX_JURISDICTION_DEFAULT_SORTING);
