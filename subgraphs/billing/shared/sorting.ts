import { PolarRequestValidationError } from '../../../kit/errors.js';

export interface SortCriterion<K extends string> {
  key: K;
  direction: 'asc' | 'desc';
}

/**
 * `["-name", "created_at"]` → `[{ key: 'name', direction: 'desc' }, { key: 'created_at', … }]`, in order;
 * `defaults` when empty; a key given twice counts once (first wins).
 * @throws PolarRequestValidationError (422 `enum`, loc query.sorting) for a key not in `keys`
 */
export function sortCriteria<K extends string>(
  sorting: readonly string[],
  keys: readonly K[],
  defaults: readonly string[],
): SortCriterion<K>[] {
  const criteria: SortCriterion<K>[] = [];
  for (const criterion of sorting.length ? sorting : defaults) {
    const descending = criterion.startsWith('-');
    const key = (descending ? criterion.slice(1) : criterion) as K;
    if (!keys.includes(key)) {
      throw new PolarRequestValidationError([
        { type: 'enum', loc: ['query', 'sorting'], msg: 'Invalid sorting criterion.', input: criterion },
      ]);
    }
    if (!criteria.some(c => c.key === key)) criteria.push({ key, direction: descending ? 'desc' : 'asc' });
  }
  return criteria;
}
