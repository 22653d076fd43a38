/** Sort keys Polar accepts for discounts (DiscountSortProperty); their SQL is in discount.read.ts. */
export const DISCOUNT_SORT_KEYS = ['created_at', 'name', 'code', 'redemptions_count'];
export const DISCOUNT_DEFAULT_SORTING = ['-created_at'];
