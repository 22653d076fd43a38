/**
 * The longest move of one sandbox clock advance: two years of 366 days (63,244,800 s). Stripe's test
 * clocks move at most two intervals at a time; this bounds the work one advance does (and so how long
 * it holds the organization's lease) to two years of renewals. The REST route states it as the
 * `seconds` maximum; a `to` farther than this from the clock's time is refused too.
 */
export const MAX_ADVANCE_SECONDS = 2 * 366 * 86_400;
