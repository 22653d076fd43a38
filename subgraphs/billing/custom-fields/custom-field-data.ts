import type { ValidationIssue } from '../../../kit/errors.js';
import type { CustomField } from './custom-field.entity.js';

type Answer = string | number | boolean | null;
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/**
 * A checkout's answers to its product's custom fields, checked as Polar checks them (docs/custom-fields.md#answers):
 * each attached field's slug takes a value of its type within its properties (text: a string within
 * `min_length`/`max_length`; number: an integer within `ge`/`le`; date: a date or date-time within `ge`/`le`, kept
 * as an ISO date-time; checkbox: a boolean, `true` when required; select: one of the option values); a missing
 * or null answer is fine unless `required` (and the field is). Keys that name no attached field are dropped, as
 * Polar's model drops them. Answers the kept values and the 422 items at `custom_field_data.<slug>`.
 */
export function checkCustomFieldData(
  attached: readonly { field: Pick<CustomField, 'slug' | 'type' | 'properties'>; required: boolean }[],
  data: Readonly<Record<string, unknown>>,
  { required }: { required: boolean },
): { data: Record<string, Answer>; issues: ValidationIssue[] } {
  const kept: Record<string, Answer> = {};
  const issues: ValidationIssue[] = [];
  for (const { field, required: fieldRequired } of attached) {
    const loc = ['body', 'custom_field_data', field.slug];
    const present = Object.hasOwn(data, field.slug);
    const value = data[field.slug];
    const mustAnswer = required && fieldRequired;
    if (!present || value === null) {
      if (mustAnswer) issues.push({ type: 'missing', loc, msg: 'Field required', input: value ?? null });
      else if (present) kept[field.slug] = null;
      continue;
    }
    const checked = checkAnswer(field, value, mustAnswer);
    if ('issue' in checked) issues.push({ ...checked.issue, loc, input: value });
    else kept[field.slug] = checked.value;
  }
  return { data: kept, issues };
}

type Checked = { value: Answer } | { issue: { type: string; msg: string } };

function checkAnswer(field: Pick<CustomField, 'type' | 'properties'>, value: unknown, required: boolean): Checked {
  const p = field.properties as Record<string, any>;
  switch (field.type) {
    case 'text': {
      if (typeof value !== 'string') return issue('string_type', 'Input should be a valid string');
      if (p.min_length != null && value.length < p.min_length)
        return issue('string_too_short', `String should have at least ${p.min_length} ${plural(p.min_length)}`);
      if (p.max_length != null && value.length > p.max_length)
        return issue('string_too_long', `String should have at most ${p.max_length} ${plural(p.max_length)}`);
      return { value };
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isInteger(value))
        return issue('int_type', 'Input should be a valid integer');
      const ge = p.ge ?? INT32_MIN;
      const le = p.le ?? INT32_MAX;
      if (value < ge) return issue('greater_than_equal', `Input should be greater than or equal to ${ge}`);
      if (value > le) return issue('less_than_equal', `Input should be less than or equal to ${le}`);
      return { value };
    }
    case 'date': {
      const at = typeof value === 'string' ? parseDate(value) : null;
      if (!at) return issue('datetime_parsing', 'Input should be a valid datetime');
      const day = at.toISOString().slice(0, 10);
      const bound = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
      if (p.ge && day < bound(p.ge))
        return issue('greater_than_equal', `Input should be greater than or equal to ${bound(p.ge)}`);
      if (p.le && day > bound(p.le))
        return issue('less_than_equal', `Input should be less than or equal to ${bound(p.le)}`);
      return { value: at.toISOString().replace('.000Z', 'Z') };
    }
    case 'checkbox': {
      if (typeof value !== 'boolean') return issue('bool_type', 'Input should be a valid boolean');
      if (required && value !== true) return issue('literal_error', 'Input should be True');
      return { value };
    }
    case 'select': {
      const options = ((p.options ?? []) as { value: string }[]).map(o => o.value);
      if (typeof value !== 'string' || !options.includes(value))
        return issue('literal_error', `Input should be ${listOf(options.map(o => `'${o}'`))}`);
      return { value };
    }
  }
}

function issue(type: string, msg: string): Checked {
  return { issue: { type, msg } };
}

const plural = (n: number) => (n === 1 ? 'character' : 'characters');

/** `a`, `a or b`, `a, b or c`: pydantic's wording of a literal's choices. */
function listOf(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** A date (`YYYY-MM-DD`, midnight UTC) or an ISO date-time; null when it is neither or not a real day. */
function parseDate(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) return null;
  const day = new Date(`${text.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text.slice(0, 10)) return null;
  const at = new Date(text.length === 10 ? `${text}T00:00:00Z` : /Z|[+-]\d{2}:?\d{2}$/.test(text) ? text : `${text}Z`);
  return Number.isNaN(at.getTime()) ? null : at;
}
