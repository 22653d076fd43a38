/** Polar's custom field sort keys (`custom-fields:list`) and the default order. */
export const CUSTOM_FIELD_SORT_KEYS = ['created_at', 'slug', 'name', 'type'] as const;
export const CUSTOM_FIELD_DEFAULT_SORTING = ['slug'];
