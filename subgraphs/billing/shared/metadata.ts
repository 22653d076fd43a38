import type { ValidationIssue } from '../../../kit/errors.js';

/** Polar's `MetadataInput` limits (docs/polar/conventions.md#metadata): ≤ 50 keys, keys 1–40 characters, strings 1–500. */
export const METADATA_MAX_KEYS = 50;
export const METADATA_KEY_MAX_LENGTH = 40;
export const METADATA_VALUE_MAX_LENGTH = 500;

/** The issues of a metadata input (empty when valid), located under `loc` (e.g. `['body', 'metadata']`). */
export function metadataIssues(metadata: unknown, loc: (string | number)[] = ['body', 'metadata']): ValidationIssue[] {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
    return [{ type: 'dict_type', loc, msg: 'Input should be a valid dictionary', input: metadata }];
  }
  const entries = Object.entries(metadata);
  const issues: ValidationIssue[] = [];
  if (entries.length > METADATA_MAX_KEYS) {
    issues.push({
      type: 'too_long',
      loc,
      msg: `Dictionary should have at most ${METADATA_MAX_KEYS} items after validation, not ${entries.length}`,
      input: metadata,
      ctx: { field_type: 'Dictionary', max_length: METADATA_MAX_KEYS, actual_length: entries.length },
    });
  }
  for (const [key, value] of entries) {
    if (key.length < 1 || key.length > METADATA_KEY_MAX_LENGTH) {
      issues.push({
        type: key.length < 1 ? 'string_too_short' : 'string_too_long',
        loc: [...loc, `[key]`],
        msg:
          key.length < 1
            ? 'String should have at least 1 character'
            : `String should have at most ${METADATA_KEY_MAX_LENGTH} characters`,
        input: key,
        ctx: key.length < 1 ? { min_length: 1 } : { max_length: METADATA_KEY_MAX_LENGTH },
      });
    }
    if (typeof value === 'string') {
      if (value.length < 1 || value.length > METADATA_VALUE_MAX_LENGTH) {
        issues.push({
          type: value.length < 1 ? 'string_too_short' : 'string_too_long',
          loc: [...loc, key],
          msg:
            value.length < 1
              ? 'String should have at least 1 character'
              : `String should have at most ${METADATA_VALUE_MAX_LENGTH} characters`,
          input: value,
          ctx: value.length < 1 ? { min_length: 1 } : { max_length: METADATA_VALUE_MAX_LENGTH },
        });
      }
    } else if (typeof value !== 'boolean' && !(typeof value === 'number' && Number.isFinite(value))) {
      issues.push({
        type: 'string_type',
        loc: [...loc, key],
        msg: 'Input should be a valid string, integer, number or boolean',
        input: value,
      });
    }
  }
  return issues;
}
