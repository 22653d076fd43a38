/** Sort keys Polar accepts for customers (docs/polar/lists.md); their SQL is in customer.read.ts. */
export const CUSTOMER_SORT_KEYS = ['created_at', 'email', 'name'];
export const CUSTOMER_DEFAULT_SORTING = ['-created_at'];
