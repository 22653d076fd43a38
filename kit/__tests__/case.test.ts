import { camelKeys, snakeKeys } from '../case.js';

describe('key case conversion', () => {
  it('converts nested keys both ways and leaves metadata keys alone', () => {
    const wire = {
      created_at: 'x',
      subscription_settings: { allow_customer_updates: true },
      metadata: { my_key: 1, otherKey: 2 },
      items: [{ max_page: 1 }],
    };
    const graph = camelKeys(wire);
    expect(graph).toEqual({
      createdAt: 'x',
      subscriptionSettings: { allowCustomerUpdates: true },
      metadata: { my_key: 1, otherKey: 2 },
      items: [{ maxPage: 1 }],
    });
    expect(snakeKeys(graph)).toEqual(wire);
  });
  it('drops __typename and keeps nulls and dates', () => {
    const date = new Date();
    expect(snakeKeys({ __typename: 'X', aB: null, cD: date })).toEqual({ a_b: null, c_d: date });
  });
});
