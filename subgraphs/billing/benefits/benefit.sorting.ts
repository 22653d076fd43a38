/** Sort keys Polar accepts for benefits (BenefitSortProperty); their SQL is in benefit.read.ts. */
export const BENEFIT_SORT_KEYS = ['created_at', 'description', 'type'];
export const BENEFIT_DEFAULT_SORTING = ['-created_at'];

/** Sort keys of grant lists. */
export const BENEFIT_GRANT_SORT_KEYS = ['created_at', 'granted_at', 'revoked_at'];
export const BENEFIT_GRANT_DEFAULT_SORTING = ['-created_at'];

/** Sort keys of the customer portal's grant list (Polar's CustomerBenefitGrantSortProperty). */
export const CUSTOMER_BENEFIT_GRANT_SORT_KEYS = ['granted_at', 'type', 'organization', 'product_benefit'];
export const CUSTOMER_BENEFIT_GRANT_DEFAULT_SORTING = ['product_benefit', '-granted_at'];
