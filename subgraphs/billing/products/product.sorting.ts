/**
 * Sort keys Polar accepts for products (docs/polar/lists.md). The price keys order by the product's live
 * prices: the "lowest" amount type (free < fixed < custom < seat_based) and the lowest amount (fixed
 * price, custom minimum, or first seat tier); their SQL is in product.read.ts.
 */
export const PRODUCT_SORT_KEYS = ['created_at', 'name', 'price_amount_type', 'price_amount'];
export const PRODUCT_DEFAULT_SORTING = ['-created_at'];
