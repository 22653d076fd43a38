/** Polar's checkout sort keys (`checkouts:list`) and the default order. */
export const CHECKOUT_SORT_KEYS = ['created_at', 'expires_at', 'status'] as const;
export const CHECKOUT_DEFAULT_SORTING = ['-created_at'];
