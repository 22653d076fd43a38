/** Polar's refund sort keys (`refunds:list`) and the default order. */
export const REFUND_SORT_KEYS = ['created_at', 'amount'] as const;
export const REFUND_DEFAULT_SORTING = ['-created_at'];
