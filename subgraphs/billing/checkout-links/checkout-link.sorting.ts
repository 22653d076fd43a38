/** Polar's checkout link sort keys (CheckoutLinkSortProperty) and its default order (oldest first). */
export const CHECKOUT_LINK_SORT_KEYS = ['created_at', 'label', 'success_url', 'allow_discount_codes'] as const;
export const CHECKOUT_LINK_DEFAULT_SORTING = ['created_at'];
