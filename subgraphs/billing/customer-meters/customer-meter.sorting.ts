/** Polar's customer meter sort keys that have a column (units are computed per row) and the default order. */
export const CUSTOMER_METER_SORT_KEYS = [
  'created_at',
  'modified_at',
  'customer_id',
  'customer_name',
  'meter_id',
  'meter_name',
] as const;
export const CUSTOMER_METER_DEFAULT_SORTING = ['-modified_at'];
