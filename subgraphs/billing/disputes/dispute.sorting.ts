/** Polar's dispute sort keys (`disputes:list`) and the default order. */
export const DISPUTE_SORT_KEYS = ['created_at', 'amount'] as const;
export const DISPUTE_DEFAULT_SORTING = ['-created_at'];
