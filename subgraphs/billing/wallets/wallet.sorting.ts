import { sortCriteria } from '../shared/sorting.js';

/** Polar's wallet sort keys (`customer_portal:wallets:list`), and the SQL each orders by. */
export const WALLET_SORT_COLUMNS = {
  created_at: { sql: 'w.created_at' },
  balance: { sql: 'w.balance' },
} as const;

export const WALLET_SORT_KEYS = Object.keys(WALLET_SORT_COLUMNS) as (keyof typeof WALLET_SORT_COLUMNS)[];
export const WALLET_DEFAULT_SORTING = ['-created_at'];

export const walletOrder = (sorting: readonly string[] | null | undefined) =>
  sortCriteria(sorting ?? [], WALLET_SORT_KEYS, WALLET_DEFAULT_SORTING);
