import { checkCustomFieldData } from '../custom-field-data.js';

const field = (slug: string, type: string, properties: Record<string, unknown> = {}) =>
  ({ slug, type, properties }) as never;

const FIELDS = [
  { field: field('company', 'text', { min_length: 2, max_length: 5 }), required: true },
  { field: field('seats', 'number', { ge: 1, le: 10 }), required: false },
  { field: field('start', 'date', { ge: 1_704_067_200 }), required: false }, // 2024-01-01
  { field: field('terms', 'checkbox'), required: true },
  {
    field: field('size', 'select', {
      options: [
        { value: 's', label: 'S' },
        { value: 'l', label: 'L' },
      ],
    }),
    required: false,
  },
];

const check = (data: Record<string, unknown>, required = true) => checkCustomFieldData(FIELDS, data, { required });
const issueOf = (data: Record<string, unknown>, required = true) =>
  check(data, required).issues.map(i => [i.loc.at(-1), i.type, i.msg]);

describe('checkCustomFieldData: answers as Polar checks them', () => {
  it('keeps valid answers of every type, drops unknown slugs, normalizes dates', () => {
    expect(check({ company: 'Acme', seats: 3, start: '2024-05-02', terms: true, size: 'l', other: 'dropped' })).toEqual(
      {
        data: { company: 'Acme', seats: 3, start: '2024-05-02T00:00:00Z', terms: true, size: 'l' },
        issues: [],
      },
    );
    expect(check({ company: 'Acme', terms: true, start: '2024-05-02T10:30:00+02:00' }).data.start).toBe(
      '2024-05-02T08:30:00Z',
    );
  });

  it.each([
    [{ terms: true }, [['company', 'missing', 'Field required']]],
    [{ company: null, terms: true }, [['company', 'missing', 'Field required']]],
    [{ company: 'A', terms: true }, [['company', 'string_too_short', 'String should have at least 2 characters']]],
    [{ company: 'Acme Inc', terms: true }, [['company', 'string_too_long', 'String should have at most 5 characters']]],
    [{ company: 7, terms: true }, [['company', 'string_type', 'Input should be a valid string']]],
    [{ company: 'Acme', terms: false }, [['terms', 'literal_error', 'Input should be True']]],
    [{ company: 'Acme', terms: 'yes' }, [['terms', 'bool_type', 'Input should be a valid boolean']]],
    [
      { company: 'Acme', terms: true, seats: 0 },
      [['seats', 'greater_than_equal', 'Input should be greater than or equal to 1']],
    ],
    [
      { company: 'Acme', terms: true, seats: 11 },
      [['seats', 'less_than_equal', 'Input should be less than or equal to 10']],
    ],
    [{ company: 'Acme', terms: true, seats: 2.5 }, [['seats', 'int_type', 'Input should be a valid integer']]],
    [
      { company: 'Acme', terms: true, start: '2023-12-31' },
      [['start', 'greater_than_equal', 'Input should be greater than or equal to 2024-01-01']],
    ],
    [
      { company: 'Acme', terms: true, start: '2024-02-30' },
      [['start', 'datetime_parsing', 'Input should be a valid datetime']],
    ],
    [{ company: 'Acme', terms: true, size: 'm' }, [['size', 'literal_error', "Input should be 's' or 'l'"]]],
  ])('%j → %j', (data, expected) => {
    expect(issueOf(data)).toEqual(expected);
  });

  it('requires nothing before the confirm, but still checks what is given', () => {
    expect(check({}, false)).toEqual({ data: {}, issues: [] });
    expect(check({ terms: false, seats: null }, false)).toEqual({ data: { terms: false, seats: null }, issues: [] });
    expect(issueOf({ seats: 99 }, false)).toEqual([
      ['seats', 'less_than_equal', 'Input should be less than or equal to 10'],
    ]);
  });
});
