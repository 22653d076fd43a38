/** Polar's sort keys and default orders of events, event names and event types. */
export const EVENT_SORT_KEYS = ['timestamp'] as const;
export const EVENT_DEFAULT_SORTING = ['-timestamp'];
export const EVENT_NAME_SORT_KEYS = ['name', 'occurrences', 'first_seen', 'last_seen'] as const;
export const EVENT_NAME_DEFAULT_SORTING = ['-last_seen'];
export const EVENT_TYPE_SORT_KEYS = ['name', 'label', 'occurrences', 'first_seen', 'last_seen'] as const;
export const EVENT_TYPE_DEFAULT_SORTING = ['-last_seen'];
