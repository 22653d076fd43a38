import { PolarRequestValidationError } from '../../../kit/errors.js';

/** Sort keys Polar accepts for organizations (docs/polar/lists.md), mapped to entity properties. */
const SORT_PROPERTIES: Record<string, string> = {
  created_at: 'createdAt',
  slug: 'slug',
  name: 'name',
  // NOTE: these two order by review queue state that a self-hosted instance does not have; they are
  // accepted (clients send them) and fall back to creation time.
  next_review_threshold: 'createdAt',
  days_in_status: 'createdAt',
};

export const ORGANIZATION_SORT_KEYS = Object.keys(SORT_PROPERTIES);
export const ORGANIZATION_DEFAULT_SORTING = ['created_at'];

/** `["-name", "created_at"]` → `{ name: 'desc', createdAt: 'asc', id: 'asc' }` (id keeps pages stable). */
export function organizationOrderBy(sorting: readonly string[]): Record<string, 'asc' | 'desc'> {
  const order: Record<string, 'asc' | 'desc'> = {};
  for (const criterion of sorting.length ? sorting : ORGANIZATION_DEFAULT_SORTING) {
    const descending = criterion.startsWith('-');
    const key = descending ? criterion.slice(1) : criterion;
    const property = SORT_PROPERTIES[key];
    if (!property) {
      throw new PolarRequestValidationError([
        { type: 'enum', loc: ['query', 'sorting'], msg: 'Invalid sorting criterion.', input: criterion },
      ]);
    }
    order[property] ??= descending ? 'desc' : 'asc';
  }
  order.id ??= 'asc';
  return order;
}
