/** Polar's payment sort keys (`payments:list`) and the default order. */
export const PAYMENT_SORT_KEYS = ['created_at', 'status', 'amount', 'method'] as const;
export const PAYMENT_DEFAULT_SORTING = ['-created_at'];
