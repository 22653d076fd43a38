/** Polar's meter sort keys (`meters:list`) and the default order. */
export const METER_SORT_KEYS = ['created_at', 'name'] as const;
export const METER_DEFAULT_SORTING = ['name'];
